import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { snoozeSchema } from "@/lib/autoshutdown";
import { COST_GROUPS, dailyCostSchema, topInstancesSchema } from "@/lib/metering";
import { instanceDetailSchema } from "@/lib/provisioning";
import { json, listOf, orgParam, orgPath, pageParams, responses } from "./parts";

/** Instance timeline and queue insight, the catalog's reference lists, usage and costs, notifications. */
const isoTime = z.string().meta({ format: "date-time" });
const instancePath = z.object({ org: orgParam, id: z.uuid().meta({ description: "Instance id" }) });
const detail = instanceDetailSchema.shape;
const projectFilter = z.object({
  project: z
    .string()
    .optional()
    .meta({ description: "Project slug or id (default: the whole organization)" }),
});

const regionSchema = z
  .object({
    code: z.string(),
    name: z.string(),
    city: z.string(),
    country: z.string(),
    jurisdiction: z.string(),
    pue: z.number(),
    gridGco2PerKwh: z.number(),
    allowed: z.boolean().meta({ description: "This organization's data-residency policy allows it" }),
  })
  .meta({ id: "Region" });

const gpuModelSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    vendor: z.string(),
    memoryGib: z.number(),
    bf16Tflops: z.number().nullable(),
    memoryBandwidthGbps: z.number().nullable(),
    tdpWatts: z.number().nullable(),
    marketMedianUsdPerGpuHour: z.number().nullable().meta({
      description:
        "The public market's median on-demand price per GPU-hour for this model (the operator's market data)",
    }),
    marketP10UsdPerGpuHour: z.number().nullable().meta({
      description: "The market range's low end: 10th percentile of the same per-GPU on-demand prices",
    }),
    marketP90UsdPerGpuHour: z.number().nullable().meta({
      description: "The market range's high end: 90th percentile of the same per-GPU on-demand prices",
    }),
    migProfiles: z.array(z.object({ name: z.string(), slices: z.int(), memoryGib: z.number() })),
  })
  .meta({ id: "GpuModel" });

const forecastSchema = z
  .object({
    period: z.string().meta({ example: "2030-05" }),
    actualUsd: z
      .number()
      .meta({ description: "Metered this month plus the estimate since the last metered hour" }),
    meteredUsd: z.number(),
    accruedUsd: z.number(),
    forecastUsd: z.number().meta({ description: "Month-end estimate" }),
    burnPerHourUsd: z.number(),
    trendPerHourUsd: z.number(),
    remainingHours: z.number(),
    method: z.string().meta({ description: "How the forecast was made, in words" }),
    currency: z.literal("USD"),
    meteredUntil: isoTime.nullable(),
  })
  .meta({ id: "SpendForecast" });

const dailySchema = z
  .object({
    groupBy: z.enum(COST_GROUPS),
    rows: z.array(z.object({ day: z.string(), key: z.string(), amountUsd: z.number() })),
    groups: z.array(z.object({ key: z.string(), label: z.string(), amountUsd: z.number() })),
    totalUsd: z.number(),
  })
  .meta({ id: "DailyCost" });

const topInstanceSchema = z
  .object({
    instanceId: z.uuid(),
    name: z.string(),
    projectName: z.string(),
    instanceTypeId: z.string(),
    gpuModelId: z.string(),
    regionCode: z.string(),
    pricingModel: z.string(),
    state: z.string(),
    amountUsd: z.number(),
    computeHours: z.number(),
  })
  .meta({ id: "TopInstance" });

const notificationSchema = z
  .object({
    id: z.uuid(),
    kind: z.string(),
    severity: z.enum(["info", "warning", "critical"]),
    title: z.string(),
    body: z.string(),
    link: z.string().nullable(),
    createdAt: isoTime,
    readAt: isoTime.nullable(),
  })
  .meta({ id: "Notification" });

const read = (
  tags: string,
  summary: string,
  query: z.ZodObject | undefined,
  ok: z.ZodType,
  description?: string,
): ZodOpenApiOperationObject => ({
  tags: [tags],
  summary,
  description,
  requestParams: { path: orgPath, ...(query ? { query } : {}) },
  responses: responses({ "200": json(summary, ok) }, [422]),
});

export const resourcePaths: ZodOpenApiPathsObject = {
  "/orgs/{org}/instances/{id}/events": {
    get: {
      tags: ["Instances"],
      summary: "The instance's timeline",
      description:
        "Every state change with its reason (text and code with parameters) and actor, oldest first.",
      requestParams: { path: instancePath, query: pageParams },
      responses: responses({ "200": json("Oldest first", listOf(detail.events.element)) }, [422]),
    },
  },
  "/orgs/{org}/instances/{id}/queue": {
    get: {
      tags: ["Instances"],
      summary: "Queue insight: reason, position, ETA, alternatives",
      description:
        "While queued: the structured reason it waits, its position, the ETA with the method used, and alternatives that would start sooner (another allowed region, spot, an equivalent GPU, a MIG slice). `queue` is null once it left the queue.",
      requestParams: { path: instancePath },
      responses: responses({
        "200": json(
          "Where it stands",
          z.object({
            instanceId: z.uuid(),
            state: detail.state,
            queueReason: detail.queueReason,
            queue: detail.queue,
          }),
        ),
      }),
    },
  },
  "/orgs/{org}/instances/{id}/snooze": {
    post: {
      tags: ["Instances"],
      summary: "Snooze a pending automatic shutdown",
      description:
        "Postpones the warned shutdown by `minutes` where the auto-shutdown policy allows it (members and up); a policy that forbids it is a 403, nothing pending a 409.",
      requestParams: { path: instancePath },
      requestBody: { required: true, content: { "application/json": { schema: snoozeSchema } } },
      responses: responses(
        { "200": json("Snoozed", z.object({ instanceId: z.uuid(), snoozedUntil: isoTime })) },
        [400, 403, 409, 413, 422],
      ),
    },
  },
  "/orgs/{org}/catalog/regions": {
    get: read(
      "Catalog",
      "Regions",
      pageParams,
      listOf(regionSchema),
      "Active regions by name, grouped by jurisdiction.",
    ),
  },
  "/orgs/{org}/catalog/gpu-models": {
    get: read("Catalog", "GPU models", pageParams, listOf(gpuModelSchema), "Specs and MIG profiles."),
  },
  "/orgs/{org}/usage/summary": {
    get: read("Usage", "Month to date and month-end forecast", projectFilter, forecastSchema),
  },
  "/orgs/{org}/usage/daily": {
    get: read(
      "Usage",
      "Cost per day by dimension",
      dailyCostSchema,
      dailySchema,
      "Per UTC day and group (project, gpu_model, region or pricing_model), metered hours only; `to` is exclusive; at most a year.",
    ),
  },
  "/orgs/{org}/usage/top-instances": {
    get: read(
      "Usage",
      "The most expensive instances",
      topInstancesSchema,
      listOf(topInstanceSchema),
      "Most expensive first in the range; `limit` is how many (a ranking: `next` is always null).",
    ),
  },
  "/orgs/{org}/notifications": {
    get: read(
      "Notifications",
      "Your notifications",
      pageParams.extend({ unread: z.enum(["1", "true"]).optional() }),
      listOf(notificationSchema),
      "Budget alerts, shutdown warnings, quota decisions …, newest first (the last 200).",
    ),
  },
  "/orgs/{org}/notifications/read": {
    post: {
      tags: ["Notifications"],
      summary: "Mark notifications read",
      requestParams: { path: orgPath },
      requestBody: {
        required: true,
        content: { "application/json": { schema: z.object({ ids: z.array(z.uuid()).min(1).max(200) }) } },
      },
      responses: responses(
        { "200": json("How many were newly marked", z.object({ marked: z.int() })) },
        [400, 403, 413, 422],
      ),
    },
  },
};

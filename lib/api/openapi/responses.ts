import { z } from "zod";
import "zod-openapi";
import { ORG_ROLES } from "@/lib/access";
import { CATALOG_SORTS, FALLBACK_TDP_WATTS, GPU_COUNT_OPTIONS } from "@/lib/catalog";
import { isoTimeSchema, pricingModelSchema } from "@/lib/provisioning";

export { instanceDetailSchema, instanceListSchema, launchPreviewSchema } from "@/lib/provisioning";

import { CHART_METRICS, CHART_RANGES } from "@/lib/telemetry";
import { PROJECT_ENVIRONMENTS } from "@/lib/tenancy";

/**
 * What the API answers, as zod schemas for the OpenAPI document. The request schemas come from the libraries;
 * these describe the JSON views the routes return (the instance views live with lib/provisioning). lib/api/__tests__ parses real responses with them and checks
 * at compile time that they match the view types, so the document cannot drift from what the routes send.
 */
const isoTime = isoTimeSchema;
const pricingModel = pricingModelSchema;

export const problemSchema = z
  .looseObject({
    type: z.string().meta({ example: "https://forja.dev/problems/invalid_state" }),
    title: z.string(),
    status: z.int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    reason: z.string().optional().meta({
      description: "Stable machine-readable reason (e.g. budget_blocked, last_owner); absent on a 500",
    }),
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .meta({ description: "422 only: messages per field (dotted paths, `_form` for the whole body)" }),
    requestId: z.string().optional().meta({ description: "500 only: quote it when reporting the problem" }),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details" });

export const meSchema = z
  .object({
    user: z.object({ id: z.uuid(), email: z.string(), name: z.string() }),
    authentication: z.enum(["token", "session"]),
    organizations: z.array(
      z.object({
        slug: z.string(),
        name: z.string(),
        role: z.enum(ORG_ROLES),
        allowedJurisdictions: z.array(z.string()),
      }),
    ),
  })
  .meta({ id: "Me" });

export const projectListSchema = z
  .object({
    items: z.array(
      z
        .object({
          id: z.uuid(),
          slug: z.string(),
          name: z.string(),
          environment: z.enum(PROJECT_ENVIRONMENTS),
          createdAt: isoTime,
        })
        .meta({ id: "Project" }),
    ),
  })
  .meta({ id: "ProjectList" });

const offeringSchema = z
  .object({
    instanceTypeId: z.string().meta({ example: "h100.1x" }),
    regionCode: z.string().meta({ example: "eu-fi-hel1" }),
    regionName: z.string(),
    city: z.string(),
    country: z.string(),
    jurisdiction: z.string(),
    gpuModelId: z.string(),
    gpuModelName: z.string(),
    gpuCount: z.int(),
    migProfile: z.string().nullable(),
    migSlices: z.int().nullable(),
    gpuMemoryGib: z.number(),
    bf16TflopsPerGpu: z.number().nullable(),
    memoryBandwidthGbps: z.number().nullable(),
    tdpWatts: z.number().nullable(),
    vcpus: z.int(),
    ramGib: z.number(),
    localDiskGib: z.number(),
    prices: z
      .record(pricingModel, z.number().nullable())
      .meta({ description: "USD per hour per pricing model" }),
    price: z.number(),
    pricePerGpu: z.number(),
    pricePerTflop: z.number().nullable(),
    available: z.int().meta({ description: "Instances of this type that could be placed right now" }),
    energyKwh: z.number().meta({
      description: "Estimated facility energy per hour at the GPUs' power limit (TDP × GPU share × PUE), kWh",
    }),
    energyEstimatedTdp: z.boolean().meta({
      description: `True when the model publishes no TDP and a ${FALLBACK_TDP_WATTS} W limit was assumed`,
    }),
    co2eGrams: z
      .number()
      .meta({ description: "Estimated g CO₂e per hour: energy × the region's grid intensity" }),
    marketMedianPerGpu: z
      .number()
      .nullable()
      .meta({ description: "Public market median on-demand USD per GPU-hour for this GPU model" }),
    vsMarket: z
      .number()
      .nullable()
      .meta({ description: "pricePerGpu relative to marketMedianPerGpu: -0.15 is 15 % below it" }),
    allowed: z.boolean().meta({ description: "False when the organization's data residency excludes it" }),
    disallowedReason: z
      .object({
        code: z.literal("outside_data_residency"),
        allowedJurisdictions: z.array(z.string()),
        message: z.string(),
      })
      .nullable(),
  })
  .meta({ id: "Offering" });

export const offeringPageSchema = z
  .object({
    items: z.array(offeringSchema),
    total: z.int(),
    page: z.int(),
    pageSize: z.int(),
    pageCount: z.int(),
    filters: z
      .object({
        region: z.array(z.string()),
        jurisdiction: z.array(z.string()),
        gpu: z.array(z.string()),
        minMemoryGib: z.int().optional(),
        gpuCount: z.enum(GPU_COUNT_OPTIONS).optional(),
        pricing: pricingModel,
        maxPrice: z.number().optional(),
        available: z.literal(true).optional(),
        sort: z.enum(CATALOG_SORTS),
        page: z.int(),
        pageSize: z.int(),
      })
      .meta({ description: "The filters as applied, defaults filled in" }),
    allowedJurisdictions: z.array(z.string()),
  })
  .meta({ id: "OfferingPage" });

export const instanceLogsSchema = z
  .object({
    lines: z.array(z.object({ at: isoTime, stream: z.enum(["stdout", "stderr"]), text: z.string() })),
    live: z.boolean().meta({ description: "True while the workload runs: poll with `since` for more" }),
  })
  .meta({ id: "InstanceLogs" });

const points = z.array(
  z.object({ t: z.number().meta({ description: "Bin start, epoch ms" }), v: z.number().nullable() }),
);

export const utilizationSeriesSchema = z
  .object({
    instanceId: z.uuid(),
    range: z.enum(CHART_RANGES),
    metric: z.enum(CHART_METRICS),
    unit: z.enum(["%", "GiB", "W", "°C"]),
    source: z.enum(["raw", "rollup"]),
    binSeconds: z.number(),
    from: isoTime,
    to: isoTime,
    yMax: z.number(),
    gpus: z.array(z.object({ gpuIndex: z.int(), points })),
    average: points,
    summary: z.object({
      mean: z.number().nullable(),
      peak: z.number().nullable(),
      latest: z.number().nullable(),
    }),
  })
  .meta({ id: "UtilizationSeries" });

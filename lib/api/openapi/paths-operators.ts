import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { cohortMemberSchema, setQuotaDefaultSchema } from "@/lib/quotas";
import { ifMatchHeader, json, jsonWithEtag, listOf, pageParams, responses, rowEtag } from "./parts";

const gpus = z.number().int();
const quotaDefaultSchema = z
  .object({
    gpuModelId: z.string().meta({ description: "A GPU model id, or '*' for any" }),
    regionCode: z.string().meta({ description: "A region code, or '*' for any" }),
    nominalGpus: gpus,
    borrowingLimitGpus: gpus,
    lendingLimitGpus: gpus.nullable().meta({ description: "null = all unused nominal may be lent" }),
  })
  .meta({ id: "QuotaDefault" });

const capacityPlanRowSchema = z
  .object({
    regionCode: z.string(),
    gpuModelId: z.string(),
    gpuModelName: z.string(),
    capacityGpus: z.number().meta({ description: "GPUs of active nodes" }),
    committedGpus: z.number().meta({ description: "Sum of the organizations' nominal quotas here" }),
    usedGpus: z.number().meta({ description: "GPUs held now (MIG slices as their fraction of a GPU)" }),
    queuedGpus: z.number().meta({ description: "GPUs the queued instances wait for" }),
    waitP95Seconds: z
      .number()
      .nullable()
      .meta({ description: "95th percentile of the queue waits ended in the last 30 days; null when none" }),
    dailyPeaks: z.array(z.number()).meta({ description: "Peak GPUs in use per UTC day, oldest first" }),
    slopePerDay: z.number(),
    daysToFull: z.number().nullable().meta({
      description: "Days until the trend of daily peaks reaches capacity (0: there; null: not expected)",
    }),
    fullOn: z.date().nullable().meta({ description: "The UTC date the trend reaches capacity, or null" }),
  })
  .meta({ id: "CapacityPlanRow" });

const op = (description: string) => `Platform operators only. ${description}`;

/** Operators' console actions without a route elsewhere: quota defaults, cohort membership, the capacity plan. */
export const operatorPaths: ZodOpenApiPathsObject = {
  "/admin/quota-defaults": {
    get: {
      tags: ["Operators"],
      summary: "List quota defaults",
      description: op(
        "What organizations without a quota row of their own get, per GPU model × region. Filter by `gpuModel` and `region` (`*` matches the any-rows literally).",
      ),
      requestParams: {
        query: pageParams.extend({ gpuModel: z.string().optional(), region: z.string().optional() }),
      },
      responses: responses(
        { "200": json("Defaults", listOf(quotaDefaultSchema.extend({ etag: rowEtag("PUT") }))) },
        [403, 422],
      ),
    },
    put: {
      tags: ["Operators"],
      summary: "Set a quota default",
      description: op(
        "Creates or replaces the default for a GPU model × region (`*` = any model or region) that organizations without their own row get. Audited. With If-Match (a row's `etag` from GET), a default another operator changed since is a 412 and nothing is written; any If-Match on a default that does not exist yet is a 412. Lowering it below what organizations on it (no row of their own, no more specific default) hold is a 409 (`reason: default_below_use`, naming them in `over`) until the body has `confirmReclaim: true`: the next scheduling pass then reclaims their running work above it with notice.",
      ),
      requestParams: { header: ifMatchHeader },
      requestBody: { required: true, content: { "application/json": { schema: setQuotaDefaultSchema } } },
      responses: responses(
        { "200": jsonWithEtag("Saved", quotaDefaultSchema.extend({ updatedAt: z.date() })) },
        [400, 403, 409, 412, 413, 422],
      ),
    },
  },
  "/admin/cohort-members": {
    put: {
      tags: ["Operators"],
      summary: "Put an organization in a cohort",
      description: op(
        "With its fair-share weight (0.1–100); an organization is in one cohort at most, so this moves it out of any other. An unknown cohort or organization is a 422 at its field. With If-Match (the member's `etag` from GET /admin/cohorts), a membership another operator changed since is a 412 and nothing is written; any If-Match for an organization in no cohort is a 412.",
      ),
      requestParams: { header: ifMatchHeader },
      requestBody: { required: true, content: { "application/json": { schema: cohortMemberSchema } } },
      responses: responses(
        { "200": jsonWithEtag("The membership as saved", cohortMemberSchema) },
        [400, 403, 412, 413, 422],
      ),
    },
  },
  "/admin/cohort-members/{orgId}": {
    delete: {
      tags: ["Operators"],
      summary: "Take an organization out of its cohort",
      description: op(
        "404 when it is in none. With If-Match (the member's `etag` from GET /admin/cohorts), a membership another operator changed since is a 412 and stays.",
      ),
      requestParams: {
        path: z.object({ orgId: z.uuid().meta({ description: "Organization id" }) }),
        header: ifMatchHeader,
      },
      responses: responses(
        { "200": json("Removed", z.object({ orgId: z.uuid(), removed: z.literal(true) })) },
        [403, 412, 422],
      ),
    },
  },
  "/admin/capacity-plan": {
    get: {
      tags: ["Operators"],
      summary: "Capacity plan",
      description: op(
        "Per region × GPU model: capacity, committed quota, use and queued demand now, the queue-time p95 of the last 30 days and when the trend of daily peaks reaches capacity — where to add GPUs next.",
      ),
      requestParams: { query: pageParams },
      responses: responses(
        { "200": json("Per region × GPU model", listOf(capacityPlanRowSchema)) },
        [403, 422],
      ),
    },
  },
};

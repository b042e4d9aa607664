import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import {
  SERVICE_RANGES,
  scalingUpdateSchema,
  serviceAuthSchema,
  serviceAuthViewSchema,
  serviceCreatedViewSchema,
  serviceDetailViewSchema,
  serviceEventViewSchema,
  serviceListItemViewSchema,
  serviceSpecSchema,
  serviceStatsViewSchema,
  serviceViewSchema,
} from "@/lib/services";
import {
  createdResponses,
  idempotencyHeader,
  ifMatchHeader,
  json,
  listOf,
  orgParam,
  orgPath,
  pageParams,
  responses,
} from "./parts";

const servicePath = z.object({
  org: orgParam,
  id: z.string().meta({ description: "Service id (or its name)" }),
});
const etag = z.object({
  ETag: z.string().meta({ description: "Send back as If-Match to change the settings" }),
});
const ranges = Object.keys(SERVICE_RANGES) as [string, ...string[]];
const tags = ["Services"];

/** Inference services (docs/adr/0012): replicas of a model server behind the gateway, autoscaled on traffic. */
export const servicePaths: ZodOpenApiPathsObject = {
  "/orgs/{org}/services": {
    get: {
      tags,
      summary: "List services with desired, active and ready replicas",
      requestParams: { path: orgPath, query: pageParams },
      responses: responses({ "200": json("By name", listOf(serviceListItemViewSchema)) }, [422]),
    },
    post: {
      tags,
      summary: "Create a service (members and up)",
      description:
        "Replicas are launched by the autoscaler through the same admission as instances (quota, budget, data residency). With auth `token`, the service token is in this answer only.",
      requestParams: { path: orgPath, header: idempotencyHeader },
      requestBody: { required: true, content: { "application/json": { schema: serviceSpecSchema } } },
      responses: responses(createdResponses("Service", serviceCreatedViewSchema), [400, 403, 409, 413, 422]),
    },
  },
  "/orgs/{org}/services/{id}": {
    get: {
      tags,
      summary: "Get a service",
      requestParams: { path: servicePath },
      responses: responses({ "200": { ...json("The service", serviceDetailViewSchema), headers: etag } }),
    },
    patch: {
      tags,
      summary: "Change a service's scaling settings (members and up)",
      description:
        "Any subset of the scaling settings; the merged result is checked again (min ≤ max). Send If-Match with the ETag you read.",
      requestParams: { path: servicePath, header: ifMatchHeader },
      requestBody: { required: true, content: { "application/json": { schema: scalingUpdateSchema } } },
      responses: responses(
        { "200": { ...json("Saved", serviceViewSchema), headers: etag } },
        [400, 403, 412, 413, 422],
      ),
    },
    delete: {
      tags,
      summary: "Delete a service (members and up)",
      description:
        "The gateway stops routing to it at once; its replicas are terminated. With If-Match, a service changed since you read it is a 412 and stays.",
      requestParams: { path: servicePath, header: ifMatchHeader },
      responses: responses({ "204": { description: "Deleted" } }, [403, 412]),
    },
  },
  "/orgs/{org}/services/{id}/auth": {
    put: {
      tags,
      summary: "Make a service public or token-protected (members and up)",
      description:
        "`token` issues a new service token, in this answer only (on a token service it replaces the current one); `public` drops the token. The gateway applies it from its next route refresh. With If-Match (the service's ETag), a service changed since you read it is a 412 and nothing changes.",
      requestParams: { path: servicePath, header: ifMatchHeader },
      requestBody: { required: true, content: { "application/json": { schema: serviceAuthSchema } } },
      responses: responses({ "200": json("Saved", serviceAuthViewSchema) }, [400, 403, 412, 413, 422]),
    },
  },
  "/orgs/{org}/services/{id}/stats": {
    get: {
      tags,
      summary:
        "Traffic, latency, errors, replicas, cold starts and cost over a range: totals and a 120-step series",
      requestParams: {
        path: servicePath,
        query: z.object({ range: z.enum(ranges).optional().meta({ description: "Default 1h" }) }),
      },
      responses: responses({ "200": json("Figures over the range", serviceStatsViewSchema) }, [422]),
    },
  },
  "/orgs/{org}/services/{id}/events": {
    get: {
      tags,
      summary: "The service's timeline (scaling decisions with their numbers, replicas)",
      description: "The latest 50 events, newest first.",
      requestParams: { path: servicePath, query: pageParams },
      responses: responses({ "200": json("Newest first", listOf(serviceEventViewSchema)) }, [422]),
    },
  },
};

import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { createWebhookSchema, webhookDeliveryJsonSchema, webhookEndpointJsonSchema } from "@/lib/notify";
import {
  createdResponses,
  idempotencyHeader,
  ifMatchHeader,
  json,
  jsonWithEtag,
  listOf,
  orgParam,
  orgPath,
  pageParams,
  responses,
} from "./parts";

const endpointPath = z.object({ org: orgParam, id: z.uuid().meta({ description: "Webhook endpoint id" }) });
const deliveryPath = endpointPath.extend({
  deliveryId: z.uuid().meta({ description: "Delivery id (the webhook-id receivers saw)" }),
});
const created = webhookEndpointJsonSchema
  .extend({
    secret: z.string().nullable().meta({
      description:
        "The signing secret (whsec_…), in this answer only; null in an Idempotency-Key replay. Store it with your receiver",
    }),
  })
  .meta({ id: "CreatedWebhookEndpoint" });
const withEtag = (description: string) => jsonWithEtag(description, webhookEndpointJsonSchema);
const queued = json("Queued for delivery", z.object({ deliveryId: z.uuid() }));

export const webhookPaths: ZodOpenApiPathsObject = {
  "/orgs/{org}/webhooks": {
    get: {
      tags: ["Webhooks"],
      summary: "List webhook endpoints (admins and owners)",
      requestParams: { path: orgPath, query: pageParams },
      responses: responses({ "200": json("Newest first", listOf(webhookEndpointJsonSchema)) }, [403, 422]),
    },
    post: {
      tags: ["Webhooks"],
      summary: "Register a webhook endpoint (admins and owners)",
      description:
        "https:// URLs (plain http only for localhost), no credentials in the URL. Deliveries are POSTed JSON signed in the Standard Webhooks style: headers webhook-id, webhook-timestamp and webhook-signature (v1,base64 HMAC-SHA256 of id.timestamp.body with the secret's base64 key); retried with backoff until a 2xx, in order per instance. At most 20 per organization.",
      requestParams: { path: orgPath, header: idempotencyHeader },
      requestBody: { required: true, content: { "application/json": { schema: createWebhookSchema } } },
      responses: responses(createdResponses("Endpoint", created), [400, 403, 409, 413, 422]),
    },
  },
  "/orgs/{org}/webhooks/{id}": {
    get: {
      tags: ["Webhooks"],
      summary: "Get a webhook endpoint",
      requestParams: { path: endpointPath },
      responses: responses({ "200": withEtag("The endpoint") }, [403]),
    },
    patch: {
      tags: ["Webhooks"],
      summary: "Pause or resume an endpoint",
      description: "A paused endpoint gets no new events and sends none of its pending deliveries.",
      requestParams: { path: endpointPath, header: ifMatchHeader },
      requestBody: {
        required: true,
        content: { "application/json": { schema: z.object({ enabled: z.boolean() }) } },
      },
      responses: responses({ "200": withEtag("Saved") }, [400, 403, 412, 413, 422]),
    },
    delete: {
      tags: ["Webhooks"],
      summary: "Delete an endpoint with its delivery history",
      description: "With If-Match (the ETag you read), an endpoint changed since is a 412 and stays.",
      requestParams: { path: endpointPath, header: ifMatchHeader },
      responses: responses({ "204": { description: "Deleted" } }, [403, 412]),
    },
  },
  "/orgs/{org}/webhooks/{id}/deliveries": {
    get: {
      tags: ["Webhooks"],
      summary: "The endpoint's deliveries with every attempt",
      description:
        "Newest first (the latest 200); each attempt with its status code, duration and response excerpt.",
      requestParams: { path: endpointPath, query: pageParams },
      responses: responses({ "200": json("Newest first", listOf(webhookDeliveryJsonSchema)) }, [403, 422]),
    },
  },
  "/orgs/{org}/webhooks/{id}/test": {
    post: {
      tags: ["Webhooks"],
      summary: "Send a test event (webhook.test) to this endpoint",
      requestParams: { path: endpointPath },
      responses: responses({ "202": queued }, [403]),
    },
  },
  "/orgs/{org}/webhooks/{id}/deliveries/{deliveryId}/resend": {
    post: {
      tags: ["Webhooks"],
      summary: "Send a delivery again",
      description:
        "A new round of attempts with the same webhook-id, so a receiver that already has it can drop it.",
      requestParams: { path: deliveryPath },
      responses: responses({ "202": queued }, [403]),
    },
  },
};

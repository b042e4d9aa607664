import { z } from "zod";
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from "zod-openapi";
import { pageQuerySchema } from "../paging";
import { problemSchema } from "./responses";

/** Building blocks of the OpenAPI document shared by its path modules. */
export const orgParam = z.string().meta({ description: "Organization slug", example: "acme-ai" });
export const orgPath = z.object({ org: orgParam });

export const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: problemSchema } },
});
export const json = (
  description: string,
  schema: z.ZodType,
  examples?: Record<string, { summary: string; value: unknown }>,
): ZodOpenApiResponseObject => ({
  description,
  content: { "application/json": { schema, ...(examples ? { examples } : {}) } },
});

/** The errors every authenticated call can answer with, plus the ones the operation names. */
export type ErrorStatus = 400 | 403 | 409 | 412 | 413 | 422 | 429;

const rateLimitHeaders = {
  RateLimit: z.string().meta({
    description: 'What is left of this window: `"read";r=599;t=42` (remaining calls, seconds to reset)',
  }),
  "RateLimit-Policy": z.string().meta({
    description:
      'The limit that applies: `"read";q=600;w=60` (calls per window of seconds; reads and writes apart)',
  }),
};

export function responses(ok: ZodOpenApiResponsesObject, extra: ErrorStatus[] = []) {
  const out: Record<string, unknown> = {};
  // Every answer carries the rate limit's headers; each success documents them beside its own.
  for (const [status, res] of Object.entries(ok)) {
    const r = res as ZodOpenApiResponseObject;
    const own = r.headers instanceof z.ZodObject ? r.headers.shape : {};
    out[status] = { ...r, headers: z.object({ ...rateLimitHeaders, ...own }) };
  }
  Object.assign(out, {
    "401": problem("Missing, malformed, unknown, revoked or expired credentials"),
    "404": problem(
      "No such organization or resource for these credentials (another tenant's ids look absent)",
    ),
    "429": {
      ...problem("Too many calls in this window; retry after the Retry-After header's seconds"),
      headers: z.object({ ...rateLimitHeaders, "Retry-After": z.string() }),
    },
  });
  const texts: Record<ErrorStatus, string> = {
    400: "The body is not valid JSON",
    403: "Your role in the organization is too weak for this, or the API token is read-only (reason token_read_only)",
    409: "The resource is in a state that does not allow this, or an Idempotency-Key was reused for another request",
    412: "If-Match does not match the resource's current ETag: someone changed it since you read it. Nothing was written",
    413: "The body is larger than 64 KiB",
    422: "Invalid input; `errors` has messages per field. Nothing was written",
    429: "Too many calls in this window; retry after the Retry-After header's seconds",
  };
  for (const code of extra) if (code !== 429) out[`${code}`] = problem(texts[code]);
  return out as ZodOpenApiResponsesObject;
}

/** `limit` and `cursor`, on every list. */
export const pageParams = pageQuerySchema;

export const idempotencyHeader = z.object({
  "Idempotency-Key": z.string().max(200).optional().meta({
    description:
      "Any unique string per intended create (a UUID); the same key again returns the first answer (200, Idempotent-Replayed: true), with another body is a 409. Remembered for 24 hours",
  }),
});

export const ifMatchHeader = z.object({
  "If-Match": z.string().optional().meta({
    description: "The ETag you read; a stale one is a 412 and nothing changes (omit for last-write-wins)",
  }),
});

/**
 * 201 Created and its idempotent replay (200) of the same representation. `location: false` where the
 * resource has no URL of its own to point at (the operators' cohorts, nodes and prices).
 */
export function createdResponses(
  what: string,
  schema: z.ZodType,
  opts: { location?: boolean } = {},
): ZodOpenApiResponsesObject {
  return {
    "201": {
      ...json(`${what} created`, schema),
      ...(opts.location === false
        ? {}
        : { headers: z.object({ Location: z.string().meta({ description: "Its URL" }) }) }),
    },
    "200": {
      ...json("Replayed: this Idempotency-Key already created it", schema),
      headers: z.object({ "Idempotent-Replayed": z.literal("true") }),
    },
  };
}

/** A list page: the items and the cursor of the next page. */
export function listOf(item: z.ZodType, extra: z.ZodRawShape = {}) {
  return z.object({
    items: z.array(item),
    ...extra,
    next: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last" }),
  });
}

/** A list row's entity tag, for the update that takes it as If-Match (a list has no per-row header). */
export const rowEtag = (on: string) =>
  z.string().meta({ description: `Send as If-Match on ${on} to refuse a lost update (412)` });

/** A 200 with the resource and its ETag (send it back as If-Match to update safely). */
export const jsonWithEtag = (description: string, schema: z.ZodType): ZodOpenApiResponseObject => ({
  ...json(description, schema),
  headers: z.object({ ETag: z.string().meta({ description: "Send back as If-Match to update safely" }) }),
});

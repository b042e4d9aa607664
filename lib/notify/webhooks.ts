import "server-only";
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { ConflictError, type Ctx, fieldMessages, NotFoundError, nowOf, parseInput } from "@/lib/core";
import { inTx, readDb } from "@/lib/db/client";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { seal } from "./sealed";
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from "./webhook-events";
import { newWebhookSecret } from "./webhook-sign";

/**
 * An organization's webhook endpoints: admins and owners register, test, pause and delete them, read each
 * delivery's attempts and re-send one. Another tenant's endpoint or delivery is not found.
 */
export const WEBHOOK_FIELD_MESSAGES = fieldMessages("WebhookFieldErrors", {
  urlInvalid: "Enter the endpoint's full URL, e.g. https://hooks.example.com/forja",
  urlNotHttps: "Use an https:// URL (plain http is accepted only for localhost)",
  urlCredentials: "Do not put a user name or password in the URL; verify the signature instead",
  urlTooLong: "URLs are at most 2,000 characters",
  eventsRequired: "Choose at least one event",
  eventInvalid: "Choose events from the list",
  descriptionTooLong: "Descriptions are at most 200 characters",
  formatInvalid: "Choose the standard format or Slack-compatible",
  enabledInvalid: "Say whether the endpoint is active: true or false",
});
const M = WEBHOOK_FIELD_MESSAGES;

export const MAX_WEBHOOK_ENDPOINTS = 20;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

export const webhookUrlSchema = z
  .string({ error: M.urlInvalid })
  .trim()
  .min(1, M.urlInvalid)
  .max(2000, M.urlTooLong)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: M.urlInvalid });
      return;
    }
    if (url.username || url.password) ctx.addIssue({ code: "custom", message: M.urlCredentials });
    else if (url.protocol === "https:") return;
    else if (url.protocol === "http:" && LOOPBACK.has(url.hostname)) return;
    else ctx.addIssue({ code: "custom", message: M.urlNotHttps });
  });

/** A form posts the chosen events as repeated fields or one comma-separated value; the API posts an array. */
const eventList = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: M.eventInvalid }), { error: M.eventsRequired })
    .min(1, M.eventsRequired)
    .max(WEBHOOK_EVENT_TYPES.length, M.eventInvalid),
);

export const createWebhookSchema = z.object({
  url: webhookUrlSchema,
  description: z.string({ error: M.descriptionTooLong }).trim().max(200, M.descriptionTooLong).default(""),
  events: eventList,
  format: z.enum(["standard", "slack"], { error: M.formatInvalid }).default("standard"),
});
export type CreateWebhookInput = z.input<typeof createWebhookSchema>;

const enabledSchema = z.object({
  enabled: z.preprocess(
    (v) =>
      v === true || v === "true" || v === "on" || v === "1"
        ? true
        : v === false || v === "false" || v === "off" || v === "0"
          ? false
          : v,
    z.boolean({ error: M.enabledInvalid }),
  ),
});

export type WebhookEndpointView = {
  id: string;
  url: string;
  description: string;
  events: string[];
  format: "standard" | "slack";
  enabled: boolean;
  /** "whsec_…abcd": enough to tell secrets apart, never the secret. */
  secretHint: string;
  createdAt: Date;
  lastDelivery: { status: "pending" | "delivered" | "failed"; at: Date; statusCode: number | null } | null;
};

export type WebhookAttemptView = {
  n: number;
  at: Date;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
  durationMs: number;
};
export type WebhookDeliveryView = {
  id: string;
  eventType: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: Date;
  lastStatusCode: number | null;
  createdAt: Date;
  deliveredAt: Date | null;
  payload: unknown;
  history: WebhookAttemptView[];
};

/** What an update may be conditional on (the endpoint's own settings, not its latest delivery). */
export type WebhookEndpointState = Omit<WebhookEndpointView, "lastDelivery">;

const endpointColumns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  events: webhookEndpoints.eventTypes,
  format: webhookEndpoints.format,
  enabled: webhookEndpoints.enabled,
  secretHint: webhookEndpoints.secretHint,
  createdAt: webhookEndpoints.createdAt,
};

/** Register an endpoint (admins). The signing secret is returned once and never again. */
export async function createWebhookEndpoint(
  ctx: Ctx,
  orgSlug: string,
  raw: CreateWebhookInput | unknown,
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { org, userId } = await requireOrgAccess(c, orgSlug, "admin");
    const input = parseInput(createWebhookSchema, raw);
    // Serialize creations per organization so two concurrent requests cannot both pass the limit.
    await c.tx.execute(sql`select pg_advisory_xact_lock(hashtext('webhooks:' || ${org.id}))`);
    const [existing] = await c.tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.orgId, org.id));
    if ((existing?.n ?? 0) >= MAX_WEBHOOK_ENDPOINTS) {
      throw new ConflictError(`An organization has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`, {
        reason: "webhook_limit",
        max: MAX_WEBHOOK_ENDPOINTS,
      });
    }
    const secret = newWebhookSecret();
    const [row] = await c.tx
      .insert(webhookEndpoints)
      .values({
        orgId: org.id,
        url: input.url,
        description: input.description,
        eventTypes: input.events,
        format: input.format,
        secretSealed: seal(secret),
        secretHint: `whsec_…${secret.slice(-4)}`,
        createdBy: userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning(endpointColumns);
    if (!row) throw new Error("webhook insert returned nothing");
    // The URL may carry a routing token of the receiver's (e.g. Slack's): the audit keeps only its origin.
    await writeAudit(c.tx, c.actor, {
      orgId: org.id,
      action: "webhook.created",
      targetType: "webhook",
      targetId: row.id,
      data: { origin: new URL(input.url).origin, events: input.events, format: input.format },
      at: now,
    });
    return { endpoint: { ...row, lastDelivery: null }, secret };
  });
}

/** The organization's endpoints with each one's latest delivery (admins). */
export async function listWebhookEndpoints(ctx: Ctx, orgSlug: string): Promise<WebhookEndpointView[]> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "admin");
  const exec = readDb(ctx);
  const rows = await exec
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.orgId, org.id))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
  if (rows.length === 0) return [];
  const latest = await exec.execute<{
    endpoint_id: string;
    status: "pending" | "delivered" | "failed";
    created_at: string;
    last_status_code: number | null;
  }>(sql`
    select distinct on (endpoint_id) endpoint_id, status, created_at, last_status_code
    from webhook_deliveries
    where endpoint_id in (${sql.join(
      rows.map((r) => sql`${r.id}`),
      sql`, `,
    )})
    order by endpoint_id, seq desc`);
  const byEndpoint = new Map(latest.rows.map((r) => [r.endpoint_id, r]));
  return rows.map((r) => {
    const l = byEndpoint.get(r.id);
    return {
      ...r,
      lastDelivery: l
        ? { status: l.status, at: new Date(l.created_at), statusCode: l.last_status_code }
        : null,
    };
  });
}

/** Admins first (a weaker role's call is a refusal whatever it sends), then the id: malformed or another tenant's → not found. */
async function endpointOf(ctx: Ctx, orgSlug: string, rawId: unknown, lock = false) {
  const { org } = await requireOrgAccess(ctx, orgSlug, "admin");
  const id = idOrNotFound(rawId, "Webhook endpoint");
  const query = readDb(ctx)
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.orgId, org.id)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new NotFoundError("Webhook endpoint");
  return { org, row };
}

/** One endpoint and its newest deliveries, each with every attempt (admins). */
export async function getWebhookEndpoint(
  ctx: Ctx,
  orgSlug: string,
  rawId: unknown,
  opts: { limit?: number } = {},
): Promise<{ endpoint: WebhookEndpointView; deliveries: WebhookDeliveryView[] }> {
  const { row } = await endpointOf(ctx, orgSlug, rawId);
  const id = row.id;
  const exec = readDb(ctx);
  const deliveries = await exec
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, id))
    .orderBy(desc(webhookDeliveries.seq))
    .limit(Math.min(opts.limit ?? 50, 200));
  const attempts =
    deliveries.length === 0
      ? []
      : await exec
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.deliveryId,
              deliveries.map((d) => d.id),
            ),
          )
          .orderBy(webhookAttempts.n);
  const views: WebhookDeliveryView[] = deliveries.map((d) => ({
    id: d.id,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt,
    lastStatusCode: d.lastStatusCode,
    createdAt: d.createdAt,
    deliveredAt: d.deliveredAt,
    payload: d.payload,
    history: attempts
      .filter((a) => a.deliveryId === d.id)
      .map((a) => ({
        n: a.n,
        at: a.at,
        statusCode: a.statusCode,
        responseExcerpt: a.responseExcerpt,
        error: a.error,
        durationMs: a.durationMs,
      })),
  }));
  const first = deliveries[0];
  return {
    endpoint: {
      ...row,
      lastDelivery: first
        ? { status: first.status, at: first.createdAt, statusCode: first.lastStatusCode }
        : null,
    },
    deliveries: views,
  };
}

/** A malformed id names nothing: not found, like another tenant's. */
function idOrNotFound(id: unknown, what: string): string {
  const parsed = z.uuid().safeParse(id);
  if (!parsed.success) throw new NotFoundError(what);
  return parsed.data;
}

/** Pause or resume an endpoint: a paused one gets no new deliveries and sends none of its pending ones. */
export async function setWebhookEnabled(
  ctx: Ctx,
  orgSlug: string,
  rawId: unknown,
  rawEnabled: unknown,
  opts: { precondition?: (current: WebhookEndpointState) => void } = {},
): Promise<{ id: string; enabled: boolean }> {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { org, row } = await endpointOf(c, orgSlug, rawId, true);
    const { enabled } = parseInput(enabledSchema, { enabled: rawEnabled });
    // On the locked row: a client that read an older version (If-Match) is refused before anything changes.
    opts.precondition?.(row);
    await c.tx
      .update(webhookEndpoints)
      .set({ enabled, updatedAt: now })
      .where(eq(webhookEndpoints.id, row.id));
    await writeAudit(c.tx, c.actor, {
      orgId: org.id,
      action: enabled ? "webhook.enabled" : "webhook.disabled",
      targetType: "webhook",
      targetId: row.id,
      at: now,
    });
    return { id: row.id, enabled };
  });
}

/** Delete an endpoint with its deliveries and their attempts. */
export async function deleteWebhookEndpoint(
  ctx: Ctx,
  orgSlug: string,
  rawId: unknown,
  opts: { precondition?: (current: WebhookEndpointState) => void } = {},
): Promise<{ url: string }> {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { org, row } = await endpointOf(c, orgSlug, rawId, true);
    // On the locked row, as PATCH: deleting what another admin changed since it was read is a 412.
    opts.precondition?.(row);
    await c.tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row.id));
    await writeAudit(c.tx, c.actor, {
      orgId: org.id,
      action: "webhook.deleted",
      targetType: "webhook",
      targetId: row.id,
      data: { origin: new URL(row.url).origin },
      at: now,
    });
    return { url: row.url };
  });
}

/** Queue a `webhook.test` event for one endpoint (it is delivered like any other, with its attempts shown). */
export async function sendTestWebhook(
  ctx: Ctx,
  orgSlug: string,
  rawId: unknown,
): Promise<{ deliveryId: string }> {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { org, row: endpoint } = await endpointOf(c, orgSlug, rawId);
    const [row] = await c.tx
      .insert(webhookDeliveries)
      .values({
        endpointId: endpoint.id,
        orgId: org.id,
        eventType: TEST_EVENT_TYPE,
        payload: {
          type: TEST_EVENT_TYPE,
          timestamp: now.toISOString(),
          data: { organization: org.slug, message: "A test event from Forja" },
        },
        createdAt: now,
        nextAttemptAt: now,
      })
      .returning({ id: webhookDeliveries.id });
    if (!row) throw new Error("delivery insert returned nothing");
    return { deliveryId: row.id };
  });
}

/**
 * Send a delivery again (admins): a new round of attempts with the same `webhook-id`, so a receiver that did
 * get it the first time can drop the duplicate. Its earlier attempts stay in the history.
 */
export async function resendWebhookDelivery(
  ctx: Ctx,
  orgSlug: string,
  rawDeliveryId: unknown,
  opts: { endpointId?: string } = {},
): Promise<{ deliveryId: string; endpointId: string }> {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { org } = await requireOrgAccess(c, orgSlug, "admin");
    const deliveryId = idOrNotFound(rawDeliveryId, "Webhook delivery");
    const [row] = await c.tx
      .update(webhookDeliveries)
      .set({ status: "pending", attempts: 0, nextAttemptAt: now })
      .where(
        and(
          eq(webhookDeliveries.id, deliveryId),
          eq(webhookDeliveries.orgId, org.id),
          opts.endpointId
            ? eq(webhookDeliveries.endpointId, idOrNotFound(opts.endpointId, "Webhook delivery"))
            : undefined,
        ),
      )
      .returning({ id: webhookDeliveries.id, endpointId: webhookDeliveries.endpointId });
    if (!row) throw new NotFoundError("Webhook delivery");
    await writeAudit(c.tx, c.actor, {
      orgId: org.id,
      action: "webhook.resent",
      targetType: "webhook_delivery",
      targetId: row.id,
      at: now,
    });
    return { deliveryId: row.id, endpointId: row.endpointId };
  });
}

/** The API's JSON for an endpoint (never the secret; `secret` appears once, in the create answer). */
export const webhookEndpointJsonSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    format: z.enum(["standard", "slack"]),
    enabled: z.boolean(),
    secretHint: z.string().meta({ description: "The secret's last characters, to tell secrets apart" }),
    createdAt: z.iso.datetime(),
    lastDelivery: z
      .object({
        status: z.enum(["pending", "delivered", "failed"]),
        at: z.iso.datetime(),
        statusCode: z.number().int().nullable(),
      })
      .nullable(),
  })
  .meta({ id: "WebhookEndpoint" });

export const webhookDeliveryJsonSchema = z
  .object({
    id: z.uuid().meta({ description: "The idempotency id receivers see as webhook-id" }),
    eventType: z.string(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int().meta({ description: "Attempts in the current round" }),
    nextAttemptAt: z.iso.datetime(),
    lastStatusCode: z.number().int().nullable(),
    createdAt: z.iso.datetime(),
    deliveredAt: z.iso.datetime().nullable(),
    payload: z.record(z.string(), z.unknown()),
    history: z.array(
      z.object({
        n: z.number().int(),
        at: z.iso.datetime(),
        statusCode: z.number().int().nullable(),
        responseExcerpt: z.string().nullable(),
        error: z.string().nullable(),
        durationMs: z.number().int(),
      }),
    ),
  })
  .meta({ id: "WebhookDelivery" });

/** JSON-ready: dates as ISO text. */
export function webhookEndpointJson(e: WebhookEndpointView): z.infer<typeof webhookEndpointJsonSchema> {
  return {
    ...e,
    events: e.events as Array<(typeof WEBHOOK_EVENT_TYPES)[number]>,
    createdAt: e.createdAt.toISOString(),
    lastDelivery: e.lastDelivery ? { ...e.lastDelivery, at: e.lastDelivery.at.toISOString() } : null,
  };
}

export function webhookDeliveryJson(d: WebhookDeliveryView): z.infer<typeof webhookDeliveryJsonSchema> {
  return {
    ...d,
    payload: d.payload as Record<string, unknown>,
    nextAttemptAt: d.nextAttemptAt.toISOString(),
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    history: d.history.map((a) => ({ ...a, at: a.at.toISOString() })),
  };
}

/** The part of an endpoint its ETag covers: its settings, so a delivery does not make a client's copy stale. */
export function webhookEndpointEtagView(e: WebhookEndpointState) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    format: e.format,
    enabled: e.enabled,
    secretHint: e.secretHint,
    createdAt: e.createdAt.toISOString(),
  };
}

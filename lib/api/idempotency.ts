import "server-only";
import { createHash } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { requireOperator, requireOrgAccess } from "@/lib/access";
import { ConflictError, nowOf, ValidationError } from "@/lib/core";
import { inTx, type Tx } from "@/lib/db/client";
import { apiIdempotencyKeys } from "@/lib/db/schema";
import type { ApiCtx } from "./authenticate";
import { API_FIELD_MESSAGES } from "./field-messages";
import { apiJson } from "./handler";

/** How long a key is remembered: a retry storm is minutes; a day covers a CI job retried the next morning. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
const KEY = /^[\x21-\x7e]{1,200}$/;

/**
 * `replay`: what a retry with the same key gets instead of `body`, when the first answer carries a secret
 * shown once (it is not stored with the key).
 */
type Created = { body: unknown; location?: string; replay?: unknown };

/** Whose keys: an organization's member, or (orgId null) an operator acting for the platform. */
type Scope = { orgId: string | null; userId: string };

/**
 * A create that is safe to retry: with an `Idempotency-Key`, the first answer is stored in the creating
 * transaction and the same key again replays it (200, Idempotent-Replayed: true) instead of creating twice;
 * the key with another request is a 409. Concurrent calls with one key wait for each other (advisory lock),
 * so the second sees the first's answer. A refused create stores nothing, so it can be retried as it is.
 */
export async function idempotentCreate(
  req: Request,
  ctx: ApiCtx,
  orgSlug: string,
  route: string,
  body: unknown,
  create: (ctx: ApiCtx) => Promise<Created>,
): Promise<Response> {
  return keyedCreate(req, ctx, route, body, create, async (c) => {
    const { org, userId } = await requireOrgAccess(c, orgSlug, "viewer");
    return { orgId: org.id, userId };
  });
}

/**
 * The same for the operators' creates under /api/v1/admin (cohorts, nodes, prices), which belong to no
 * organization: keys are the operator's own, in the platform scope (org_id null). Who is not an operator is
 * refused before any key is read, so a replay cannot show them what an operator created.
 */
export async function idempotentPlatformCreate(
  req: Request,
  ctx: ApiCtx,
  route: string,
  body: unknown,
  create: (ctx: ApiCtx) => Promise<Created>,
): Promise<Response> {
  return keyedCreate(req, ctx, `admin/${route}`, body, create, async (c) => {
    requireOperator(c);
    return { orgId: null, userId: ctx.actor.userId };
  });
}

async function keyedCreate(
  req: Request,
  ctx: ApiCtx,
  route: string,
  body: unknown,
  create: (ctx: ApiCtx) => Promise<Created>,
  scopeOf: (ctx: ApiCtx & { tx: Tx }) => Promise<Scope>,
): Promise<Response> {
  const key = req.headers.get("idempotency-key");
  const created = (c: Created, replayed: boolean) =>
    apiJson(c.body, {
      status: replayed ? 200 : 201,
      headers: {
        ...(c.location ? { location: c.location } : {}),
        ...(replayed ? { "idempotent-replayed": "true" } : {}),
      },
    });
  if (key === null) return created(await create(ctx), false);
  if (!KEY.test(key)) {
    throw ValidationError.field("Idempotency-Key", API_FIELD_MESSAGES.idempotencyKey);
  }
  const requestHash = createHash("sha256")
    .update(`${req.method} ${route}\n${JSON.stringify(body ?? null)}`)
    .digest("hex");
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { orgId, userId } = await scopeOf(c);
    await c.tx.execute(
      sql`select pg_advisory_xact_lock(hashtext('forja:api-idempotency'), hashtext(${`${orgId ?? "platform"}/${userId}/${key}`}))`,
    );
    const where = and(
      orgId === null ? isNull(apiIdempotencyKeys.orgId) : eq(apiIdempotencyKeys.orgId, orgId),
      eq(apiIdempotencyKeys.userId, userId),
      eq(apiIdempotencyKeys.key, key),
    );
    const [seen] = await c.tx.select().from(apiIdempotencyKeys).where(where);
    if (seen && now.getTime() - seen.createdAt.getTime() < IDEMPOTENCY_TTL_MS) {
      if (seen.requestHash !== requestHash) {
        throw new ConflictError(
          "This Idempotency-Key was already used for a different request; use a new key for a new resource",
          { reason: "idempotency_key_reused" },
        );
      }
      return created({ body: seen.body, location: seen.location ?? undefined }, true);
    }
    if (seen) await c.tx.delete(apiIdempotencyKeys).where(where);
    const result = await create(c);
    // Stored as the client received it (dates as ISO text), so a replay is byte-for-byte the same answer.
    const stored = JSON.parse(JSON.stringify(result.replay ?? result.body)) as unknown;
    await c.tx.insert(apiIdempotencyKeys).values({
      orgId,
      userId,
      key,
      requestHash,
      status: 201,
      body: stored,
      location: result.location ?? null,
      createdAt: now,
    });
    return created({ ...result, body: JSON.parse(JSON.stringify(result.body)) as unknown }, false);
  });
}

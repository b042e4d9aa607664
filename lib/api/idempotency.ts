import "server-only";
import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { ConflictError, nowOf, ValidationError } from "@/lib/core";
import { inTx } from "@/lib/db/client";
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
    const { org, userId } = await requireOrgAccess(c, orgSlug, "viewer");
    await c.tx.execute(
      sql`select pg_advisory_xact_lock(hashtext('forja:api-idempotency'), hashtext(${`${org.id}/${userId}/${key}`}))`,
    );
    const where = and(
      eq(apiIdempotencyKeys.orgId, org.id),
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
      orgId: org.id,
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

import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { requireOrgAccess, roleAtLeast } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import {
  type Ctx,
  fieldMessages,
  NotFoundError,
  nowOf,
  parseInput,
  type TokenScope,
  UnauthorizedError,
  type UserActor,
  ValidationError,
} from "@/lib/core";
import { type Executor, getDb, inTx, readDb } from "@/lib/db/client";
import { apiTokens, memberships, users } from "@/lib/db/schema";
import { invalidState } from "./errors";

/**
 * API tokens for automation (CI, notebooks, IaC): a token acts as its user, in one organization, with the user's
 * role at the time of each call (a demotion takes effect at once). Only the sha256 of the secret is stored.
 */
export const API_TOKEN_FIELD_MESSAGES = fieldMessages("ApiTokenFieldErrors", {
  nameRequired: "Enter a name for the token",
  nameTooLong: "Token names are at most 60 characters",
  expiryInvalid: "Choose an expiry between 1 and 365 days, or no expiry",
  tokenInvalid: "Choose a token",
  scopeInvalid: "Choose read, write or admin",
  adminOperatorsOnly: "Only platform operators can create admin tokens",
});
const M = API_TOKEN_FIELD_MESSAGES;

export const API_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
/**
 * read: GETs only (at most a viewer's powers); write: everything the user's role allows; admin: write plus the
 * operators' /api/v1/admin routes, for platform operators only.
 */
export const API_TOKEN_SCOPES = ["read", "write", "admin"] as const;
/** A token whose last_used_at is older than this gets it refreshed; closer calls skip the write. */
export const LAST_USED_GRANULARITY_MS = 60_000;

const DAY_MS = 86_400_000;
// forja_<8 hex prefix>_<64 hex secret>: hex keeps the whole token selectable with a double click.
const TOKEN_PATTERN = /^forja_([0-9a-f]{8})_[0-9a-f]{64}$/;

export const createApiTokenSchema = z.object({
  name: z.string({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(60, M.nameTooLong),
  /** Days until it stops working; empty, "never" or null for no expiry. */
  expiresInDays: z.preprocess(
    (v) => (v === "" || v === "never" || v === undefined ? null : v),
    z.coerce
      .number({ error: M.expiryInvalid })
      .int(M.expiryInvalid)
      .min(1, M.expiryInvalid)
      .max(365, M.expiryInvalid)
      .nullable(),
  ),
  scope: z.enum(API_TOKEN_SCOPES, { error: M.scopeInvalid }).default("write"),
});
export type CreateApiTokenInput = z.input<typeof createApiTokenSchema>;

const tokenIdSchema = z.object({ tokenId: z.uuid({ error: M.tokenInvalid }) });

export type ApiTokenView = {
  id: string;
  name: string;
  /** Shown to tell tokens apart: "forja_1a2b3c4d". */
  prefix: string;
  scope: TokenScope;
  userId: string;
  userName: string;
  userEmail: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  status: "active" | "expired" | "revoked";
};

export function hashApiToken(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

function statusOf(t: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): ApiTokenView["status"] {
  if (t.revokedAt) return "revoked";
  if (t.expiresAt && t.expiresAt <= now) return "expired";
  return "active";
}

const viewColumns = {
  id: apiTokens.id,
  name: apiTokens.name,
  prefix: apiTokens.prefix,
  scope: apiTokens.scope,
  userId: apiTokens.userId,
  userName: users.name,
  userEmail: users.email,
  createdAt: apiTokens.createdAt,
  lastUsedAt: apiTokens.lastUsedAt,
  expiresAt: apiTokens.expiresAt,
  revokedAt: apiTokens.revokedAt,
};

/**
 * Create a token (members and up: viewers cannot act, so a token would only read what they already can in
 * the console). The secret is returned once and never again.
 */
export async function createApiToken(
  ctx: Ctx,
  orgSlug: string,
  raw: CreateApiTokenInput | unknown,
): Promise<{ token: ApiTokenView; secret: string }> {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    // Authorize before validating: a viewer's bad form is a refusal, not a field list.
    const access = await requireOrgAccess(c, orgSlug, "member");
    const input = parseInput(createApiTokenSchema, raw);
    // Operator powers come from the signed-in operator only: never from a token (even an admin one, so a
    // leaked token cannot extend itself) and never for a tenant's member.
    if (
      input.scope === "admin" &&
      !(ctx.actor.kind === "user" && ctx.actor.isOperator && !ctx.actor.tokenId)
    ) {
      throw ValidationError.field("scope", M.adminOperatorsOnly);
    }
    const prefix = `forja_${randomBytes(4).toString("hex")}`;
    const secret = `${prefix}_${randomBytes(32).toString("hex")}`;
    const [row] = await tx
      .insert(apiTokens)
      .values({
        orgId: access.org.id,
        userId: access.userId,
        name: input.name,
        prefix,
        tokenHash: hashApiToken(secret),
        scope: input.scope,
        expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS) : null,
        createdAt: now,
      })
      .returning({ id: apiTokens.id });
    if (!row) throw new Error("token insert returned nothing");
    await writeAudit(tx, ctx.actor, {
      orgId: access.org.id,
      action: "api_token.created",
      targetType: "api_token",
      targetId: row.id,
      data: { name: input.name, prefix, scope: input.scope, expiresInDays: input.expiresInDays },
      at: now,
    });
    const [token] = await tx
      .select(viewColumns)
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(eq(apiTokens.id, row.id));
    if (!token) throw new Error("token vanished after insert");
    return { token: { ...token, status: statusOf(token, now) }, secret };
  });
}

/** Your own tokens; admins and owners see every token of the organization (to revoke a leaked one). */
export async function listApiTokens(ctx: Ctx, orgSlug: string): Promise<ApiTokenView[]> {
  const access = await requireOrgAccess(ctx, orgSlug, "viewer");
  const now = nowOf(ctx);
  const all = roleAtLeast(access.role, "admin");
  const rows = await readDb(ctx)
    .select(viewColumns)
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(eq(apiTokens.orgId, access.org.id), all ? undefined : eq(apiTokens.userId, access.userId)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return rows.map((r) => ({ ...r, status: statusOf(r, now) }));
}

/**
 * Revoke a token: your own, or anyone's in the organization for admins and owners. Another organization's
 * token is NotFound, and so is someone else's token for a member or viewer.
 */
export async function revokeApiToken(ctx: Ctx, orgSlug: string, raw: unknown): Promise<ApiTokenView> {
  const { tokenId } = parseInput(tokenIdSchema, raw);
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const access = await requireOrgAccess(c, orgSlug, "viewer");
    const [token] = await tx
      .select(viewColumns)
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.orgId, access.org.id)))
      .for("update", { of: apiTokens });
    if (!token) throw new NotFoundError("Token");
    // Someone else's token is invisible below admin (they cannot list it), so it is NotFound, not Forbidden.
    if (token.userId !== access.userId && !roleAtLeast(access.role, "admin"))
      throw new NotFoundError("Token");
    if (token.revokedAt) throw invalidState("This token is already revoked", "token_revoked");
    await tx.update(apiTokens).set({ revokedAt: now }).where(eq(apiTokens.id, token.id));
    await writeAudit(tx, ctx.actor, {
      orgId: access.org.id,
      action: "api_token.revoked",
      targetType: "api_token",
      targetId: token.id,
      data: { name: token.name, prefix: token.prefix, owner: token.userEmail },
      at: now,
    });
    const revoked = { ...token, revokedAt: now };
    return { ...revoked, status: statusOf(revoked, now) };
  });
}

/**
 * Resolve a bearer secret to the actor it stands for. Unknown, revoked or expired tokens, and tokens whose
 * user has left the organization, are all the same 401 (no hint which). last_used_at is written at most once
 * a minute per token, so a busy CI job does not turn every read into a write.
 */
export async function authenticateApiToken(
  secret: string,
  opts: { now?: Date; exec?: Executor } = {},
): Promise<UserActor> {
  const now = opts.now ?? new Date();
  const exec = opts.exec ?? getDb();
  const refused = new UnauthorizedError("The API token is invalid, expired or revoked");
  if (!TOKEN_PATTERN.test(secret)) throw refused;
  const [row] = await exec
    .select({
      id: apiTokens.id,
      orgId: apiTokens.orgId,
      scope: apiTokens.scope,
      userId: users.id,
      email: users.email,
      isOperator: users.isOperator,
      lastUsedAt: apiTokens.lastUsedAt,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .innerJoin(
      memberships,
      and(eq(memberships.orgId, apiTokens.orgId), eq(memberships.userId, apiTokens.userId)),
    )
    .where(eq(apiTokens.tokenHash, hashApiToken(secret)))
    .limit(1);
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) throw refused;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_GRANULARITY_MS) {
    // Conditional so concurrent calls in the same minute write once.
    await exec
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiTokens.id, row.id),
          sql`(${apiTokens.lastUsedAt} is null or ${apiTokens.lastUsedAt} <= ${new Date(now.getTime() - LAST_USED_GRANULARITY_MS)})`,
        ),
      );
  }
  // Only an admin token carries operator powers, and only while its user is still an operator (re-read on
  // every call, like the role): demoting the operator disarms their admin tokens at once.
  return {
    kind: "user",
    userId: row.userId,
    email: row.email,
    isOperator: row.scope === "admin" && row.isOperator,
    tokenOrgId: row.orgId,
    tokenId: row.id,
    tokenScope: row.scope,
  };
}

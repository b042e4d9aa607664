import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { requireOrgAccess } from "@/lib/access";
import {
  ForbiddenError,
  InvalidStateError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { apiTokens, memberships } from "@/lib/db/schema";
import {
  API_TOKEN_FIELD_MESSAGES,
  authenticateApiToken,
  createApiToken,
  listApiTokens,
  revokeApiToken,
} from "@/lib/tenancy";
import { allCatalogs } from "@/messages";
import { newTenant } from "@/test/factories";
import { addMember, auditActions, DAY } from "./helpers";

async function tokenRow(id: string) {
  const [row] = await getDb().select().from(apiTokens).where(eq(apiTokens.id, id));
  if (!row) throw new Error(`no token ${id}`);
  return row;
}

describe("API tokens", () => {
  it("returns the secret once and stores only its sha256", async () => {
    const t = await newTenant("tok");
    const { token, secret } = await createApiToken(t.ctx, t.org.slug, { name: "CI", expiresInDays: "" });
    expect(secret).toMatch(/^forja_[0-9a-f]{8}_[0-9a-f]{64}$/);
    expect(secret.startsWith(`${token.prefix}_`)).toBe(true);
    expect(token).toMatchObject({ name: "CI", status: "active", expiresAt: null, userId: t.user.id });
    expect(JSON.stringify(token)).not.toContain(secret.slice(15));

    const row = await tokenRow(token.id);
    expect(row.tokenHash).toBe(createHash("sha256").update(secret).digest("hex"));
    // No column of the row holds the secret or its random part.
    const { rows } = await getDb().execute(
      sql`select row_to_json(t)::text as j from api_tokens t where id = ${token.id}`,
    );
    expect(String(rows[0]?.j)).not.toContain(secret.slice(15));
    expect(await listApiTokens(t.ctx, t.org.slug)).toEqual([expect.not.objectContaining({ secret })]);
    expect(await auditActions(t.org.id)).toContain("api_token.created");
  });

  it("authenticates as its user, scoped to its organization, and records the last use at most once a minute", async () => {
    const t = await newTenant("tok");
    const { token, secret } = await createApiToken(t.ctx, t.org.slug, { name: "CI" });
    const now = new Date(Date.now() + 1000);
    const actor = await authenticateApiToken(secret, { now });
    expect(actor).toEqual({
      kind: "user",
      userId: t.user.id,
      email: t.user.email,
      isOperator: false,
      tokenOrgId: t.org.id,
      tokenId: token.id,
      tokenScope: "write",
    });
    expect((await tokenRow(token.id)).lastUsedAt?.toISOString()).toBe(now.toISOString());
    await authenticateApiToken(secret, { now: new Date(now.getTime() + 30_000) });
    expect((await tokenRow(token.id)).lastUsedAt?.toISOString()).toBe(now.toISOString());
    const later = new Date(now.getTime() + 61_000);
    await authenticateApiToken(secret, { now: later });
    expect((await tokenRow(token.id)).lastUsedAt?.toISOString()).toBe(later.toISOString());
  });

  it("refuses unknown, malformed, revoked and expired tokens, and tokens of someone who left", async () => {
    const t = await newTenant("tok");
    const member = await addMember(t.org.id, "member");
    const now = new Date();
    const refused = (secret: string, at = now) =>
      expect(authenticateApiToken(secret, { now: at })).rejects.toBeInstanceOf(UnauthorizedError);

    await refused(`forja_00000000_${"0".repeat(64)}`);
    await refused("not-a-token");
    await refused("");

    const expiring = await createApiToken(t.ctx, t.org.slug, { name: "week", expiresInDays: 7 });
    expect(expiring.token.expiresAt?.getTime()).toBeGreaterThanOrEqual(now.getTime() + 7 * DAY - 5_000);
    await expect(authenticateApiToken(expiring.secret, { now })).resolves.toMatchObject({
      userId: t.user.id,
    });
    await refused(expiring.secret, new Date(now.getTime() + 7 * DAY + 60_000));

    const revoked = await createApiToken(t.ctx, t.org.slug, { name: "old" });
    await revokeApiToken(t.ctx, t.org.slug, { tokenId: revoked.token.id });
    await refused(revoked.secret);

    const leaver = await createApiToken(member.ctx, t.org.slug, { name: "leaver" });
    await expect(authenticateApiToken(leaver.secret, { now })).resolves.toMatchObject({
      userId: member.user.id,
    });
    // Deleted directly, not through removeMember (which also revokes): the membership itself is what counts.
    await getDb()
      .delete(memberships)
      .where(and(eq(memberships.orgId, t.org.id), eq(memberships.userId, member.user.id)));
    await refused(leaver.secret);
  });

  it("a token of organization A cannot reach B, even when its user belongs to both", async () => {
    const a = await newTenant("tokA");
    const b = await newTenant("tokB");
    await getDb().insert(memberships).values({ orgId: b.org.id, userId: a.user.id, role: "admin" });
    const { secret } = await createApiToken(a.ctx, a.org.slug, { name: "CI" });
    const ctx = { actor: await authenticateApiToken(secret) };
    await expect(requireOrgAccess(ctx, a.org.slug, "member")).resolves.toMatchObject({ role: "owner" });
    await expect(requireOrgAccess(ctx, b.org.slug)).rejects.toBeInstanceOf(NotFoundError);
    // The same user's session still reaches B.
    await expect(requireOrgAccess(a.ctx, b.org.slug)).resolves.toMatchObject({ role: "admin" });
  });

  it("acts with the user's current role: a member demoted to viewer can no longer act", async () => {
    const t = await newTenant("tok");
    const member = await addMember(t.org.id, "member");
    const { secret } = await createApiToken(member.ctx, t.org.slug, { name: "CI" });
    const ctx = { actor: await authenticateApiToken(secret) };
    await expect(requireOrgAccess(ctx, t.org.slug, "member")).resolves.toMatchObject({ role: "member" });
    await getDb()
      .update(memberships)
      .set({ role: "viewer" })
      .where(and(eq(memberships.orgId, t.org.id), eq(memberships.userId, member.user.id)));
    await expect(requireOrgAccess(ctx, t.org.slug, "member")).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("members and up create tokens; viewers and strangers cannot; bad input writes nothing", async () => {
    const t = await newTenant("tok");
    const viewer = await addMember(t.org.id, "viewer");
    const stranger = await newTenant("stranger");
    await expect(createApiToken(viewer.ctx, t.org.slug, { name: "x" })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(createApiToken(stranger.ctx, t.org.slug, { name: "x" })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    for (const bad of [
      { name: " " },
      { name: "x".repeat(61) },
      { name: "ok", expiresInDays: 0 },
      { name: "ok", expiresInDays: 400 },
      { name: "ok", expiresInDays: "soon" },
    ]) {
      await expect(createApiToken(t.ctx, t.org.slug, bad)).rejects.toBeInstanceOf(ValidationError);
    }
    const err = await createApiToken(t.ctx, t.org.slug, { name: "" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).fieldErrors).toEqual({ name: ["Enter a name for the token"] });
    expect(await getDb().$count(apiTokens, eq(apiTokens.orgId, t.org.id))).toBe(0);
  });

  it("lists your own tokens; admins see and revoke everyone's; members cannot touch others'", async () => {
    const t = await newTenant("tok");
    const admin = await addMember(t.org.id, "admin");
    const member = await addMember(t.org.id, "member");
    const mine = await createApiToken(member.ctx, t.org.slug, { name: "member CI" });
    const owners = await createApiToken(t.ctx, t.org.slug, { name: "owner CI" });

    expect((await listApiTokens(member.ctx, t.org.slug)).map((x) => x.name)).toEqual(["member CI"]);
    expect((await listApiTokens(admin.ctx, t.org.slug)).map((x) => x.name).sort()).toEqual([
      "member CI",
      "owner CI",
    ]);

    await expect(revokeApiToken(member.ctx, t.org.slug, { tokenId: owners.token.id })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect((await tokenRow(owners.token.id)).revokedAt).toBeNull();

    const revoked = await revokeApiToken(admin.ctx, t.org.slug, { tokenId: mine.token.id });
    expect(revoked.status).toBe("revoked");
    expect((await listApiTokens(member.ctx, t.org.slug))[0]?.status).toBe("revoked");
    await expect(revokeApiToken(member.ctx, t.org.slug, { tokenId: mine.token.id })).rejects.toBeInstanceOf(
      InvalidStateError,
    );
    expect((await auditActions(t.org.id)).filter((a) => a.startsWith("api_token."))).toEqual([
      "api_token.created",
      "api_token.created",
      "api_token.revoked",
    ]);
  });

  it("another organization's token id is not found, and stays valid", async () => {
    const a = await newTenant("tokA");
    const b = await newTenant("tokB");
    const { token, secret } = await createApiToken(b.ctx, b.org.slug, { name: "B" });
    await expect(revokeApiToken(a.ctx, a.org.slug, { tokenId: token.id })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(revokeApiToken(a.ctx, b.org.slug, { tokenId: token.id })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(revokeApiToken(a.ctx, a.org.slug, { tokenId: "nope" })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(authenticateApiToken(secret)).resolves.toMatchObject({ tokenOrgId: b.org.id });
  });
});

describe("API token field messages", () => {
  it("the English catalog says exactly what the library says, so the form can translate it", () => {
    expect(allCatalogs.en.ApiTokenFieldErrors).toEqual(API_TOKEN_FIELD_MESSAGES);
    expect(Object.keys(allCatalogs.es.ApiTokenFieldErrors).sort()).toEqual(
      Object.keys(API_TOKEN_FIELD_MESSAGES).sort(),
    );
  });
});

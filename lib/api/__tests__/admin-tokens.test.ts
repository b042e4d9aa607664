import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as adminQuotaRequests } from "@/app/api/v1/admin/quota-requests/route";
import { GET as projects } from "@/app/api/v1/orgs/[org]/projects/route";
import { ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { apiTokens, users } from "@/lib/db/schema";
import { newFleet } from "@/lib/provisioning/__tests__/fixtures";
import { createQuotaRequest } from "@/lib/quotas";
import { createApiToken } from "@/lib/tenancy";
import { newTenant } from "@/test/factories";
import { call, expectProblem } from "./support";

/** A tenant whose owner is (in the database, and in the signed-in session's actor) a platform operator. */
async function operatorTenant(label: string) {
  const t = await newTenant(label);
  await getDb().update(users).set({ isOperator: true }).where(eq(users.id, t.user.id));
  return { ...t, ctx: { actor: { ...t.actor, isOperator: true } } };
}

describe("admin-scope API tokens (operators)", () => {
  it("an operator's admin token reaches /api/v1/admin; their write token does not", async () => {
    const op = await operatorTenant("admtok");
    const admin = await createApiToken(op.ctx, op.org.slug, { name: "ops", scope: "admin" });
    expect(admin.token.scope).toBe("admin");
    const write = await createApiToken(op.ctx, op.org.slug, { name: "ci" });
    // One request at least, so the queue's items are checked against the document too.
    const fleet = await newFleet([{ gpus: 1 }]);
    await createQuotaRequest(op.ctx, op.org.slug, {
      gpuModelId: "h100",
      regionCode: fleet.region,
      requestedGpus: 16,
      reason: "Admin token test",
    });
    const ok = await call(adminQuotaRequests, "/admin/quota-requests", {}, { token: admin.secret });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    await expectProblem(
      await call(adminQuotaRequests, "/admin/quota-requests", {}, { token: write.secret }),
      403,
    );
    // It is still a token of its organization for tenant routes.
    expect(
      (await call(projects, `/orgs/${op.org.slug}/projects`, { org: op.org.slug }, { token: admin.secret }))
        .status,
    ).toBe(200);

    // Demoted, the operator's admin token loses the admin routes at once (the flag is read on every call).
    await getDb().update(users).set({ isOperator: false }).where(eq(users.id, op.user.id));
    await expectProblem(
      await call(adminQuotaRequests, "/admin/quota-requests", {}, { token: admin.secret }),
      403,
    );
  });

  it("a non-operator cannot mint one, and a forged admin row does not make them an operator", async () => {
    const t = await newTenant("admtok-no");
    const refused = await createApiToken(t.ctx, t.org.slug, { name: "x", scope: "admin" }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).fieldErrors.scope).toEqual([
      "Only platform operators can create admin tokens",
    ]);
    const minted = await getDb().select().from(apiTokens).where(eq(apiTokens.userId, t.user.id));
    expect(minted).toHaveLength(0);

    // Even a row with scope admin (written behind the library's back) carries no operator power.
    const { secret, token } = await createApiToken(t.ctx, t.org.slug, { name: "y" });
    await getDb().update(apiTokens).set({ scope: "admin" }).where(eq(apiTokens.id, token.id));
    await expectProblem(await call(adminQuotaRequests, "/admin/quota-requests", {}, { token: secret }), 403);
  });

  it("a token cannot mint an admin token, even an operator's own admin token", async () => {
    const op = await operatorTenant("admtok-tok");
    const admin = await createApiToken(op.ctx, op.org.slug, { name: "ops", scope: "admin" });
    const viaToken = { actor: { ...op.ctx.actor, tokenId: admin.token.id, tokenOrgId: op.org.id } };
    await expect(
      createApiToken(viaToken, op.org.slug, { name: "more", scope: "admin" }),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});

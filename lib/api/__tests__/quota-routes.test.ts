import { describe, expect, it, vi } from "vitest";
import { POST as approve } from "@/app/api/v1/admin/quota-requests/[id]/approve/route";
import { POST as deny } from "@/app/api/v1/admin/quota-requests/[id]/deny/route";
import { GET as adminQuotas, PUT as putQuota } from "@/app/api/v1/admin/quotas/route";
import { GET as orgQuotas } from "@/app/api/v1/orgs/[org]/quotas/route";
import type { UserActor } from "@/lib/core";
import { newFleet, newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { createQuotaRequest, setOrgQuota } from "@/lib/quotas";
import { allPages, call, expectProblem, postJson, tokenFor } from "./support";

// The console's session (admin-scope tokens are tested in admin-tokens.test.ts).
const session = vi.hoisted(() => ({ actor: null as UserActor | null }));
vi.mock("@/lib/auth/session", async (orig) => ({
  ...(await orig<Record<string, unknown>>()),
  getActor: async () => session.actor,
}));
const console_ = { cookie: "next-auth.session-token=t", host: "forja.test", origin: "http://forja.test" };

describe("quota API", () => {
  it("members read their quotas; an operator partly approves and denies through the API; a token is refused", async () => {
    const fleet = await newFleet([{ gpus: 8 }]);
    const o = await newOrg("qapi");
    const op = { ...(o.actor as UserActor), isOperator: true };
    await setOrgQuota(
      { actor: op },
      {
        orgId: o.org.id,
        gpuModelId: "h100",
        regionCode: fleet.region,
        nominalGpus: 1,
        borrowingLimitGpus: 0,
      },
    );
    const member = await o.as("member");
    const token = await tokenFor(member, o.slug);
    const mine = await allPages<{ regionCode: string; nominalGpus: number }, { org: string }>(
      orgQuotas,
      `/orgs/${o.slug}/quotas?limit=100`,
      { org: o.slug },
      { token },
    );
    expect(mine.find((r) => r.regionCode === fleet.region)?.nominalGpus).toBe(1);

    const ask = { gpuModelId: "h100", regionCode: fleet.region, requestedGpus: 6, reason: "Paper deadline" };
    const r1 = await createQuotaRequest(member, o.slug, ask);
    const r2 = await createQuotaRequest(member, o.slug, ask);

    const byToken = await postJson(
      approve,
      `/admin/quota-requests/${r1.id}/approve`,
      { id: r1.id },
      {},
      { token },
    );
    expect(byToken.status).toBe(403);

    session.actor = op;
    const partly = await postJson(
      approve,
      `/admin/quota-requests/${r1.id}/approve`,
      { id: r1.id },
      { grantedGpus: 4, message: "4 for now" },
      { headers: console_ },
    );
    expect(partly.status).toBe(200);
    expect(await partly.json()).toMatchObject({
      status: "partial",
      grantedGpus: 4,
      decisionMessage: "4 for now",
    });
    const again = await postJson(
      approve,
      `/admin/quota-requests/${r1.id}/approve`,
      { id: r1.id },
      {},
      { headers: console_ },
    );
    expect(again.status).toBe(409);
    expect(again.headers.get("content-type")).toBe("application/problem+json");
    const denied = await postJson(deny, `/admin/quota-requests/${r2.id}/deny`, { id: r2.id }, "", {
      headers: console_,
    });
    expect(await denied.json()).toMatchObject({ status: "denied" });

    const rows = await allPages<
      { orgId: string; regionCode: string; nominalGpus: number },
      Record<string, never>
    >(adminQuotas, `/admin/quotas?limit=100&org=${o.slug}`, {}, { headers: console_ });
    expect(rows.find((r) => r.orgId === o.org.id && r.regionCode === fleet.region)?.nominalGpus).toBe(4);
    const bad = await call(
      putQuota,
      "/admin/quotas",
      {},
      {
        method: "PUT",
        headers: { ...console_, "content-type": "application/json" },
        body: JSON.stringify({
          orgId: o.org.id,
          gpuModelId: "h100",
          regionCode: fleet.region,
          nominalGpus: 2,
          borrowingLimitGpus: 0,
          lendingLimitGpus: 3,
        }),
      },
    );
    expect(bad.status).toBe(422);
    session.actor = null;
  });
});

describe("operators' quota levels: ETag and If-Match (issue 10)", () => {
  it("a PUT with a row's etag after another operator changed the levels is a 412; nothing is written", async () => {
    const fleet = await newFleet([{ gpus: 8 }]);
    const o = await newOrg("quota-etag");
    const op = { actor: { ...(o.actor as UserActor), isOperator: true } };
    session.actor = op.actor;
    const k = { orgId: o.org.id, gpuModelId: "h100", regionCode: fleet.region };
    await setOrgQuota(op, { ...k, nominalGpus: 4, borrowingLimitGpus: 0 });
    const row = async () =>
      (
        await allPages<
          { orgId: string; regionCode: string; nominalGpus: number; etag: string },
          Record<string, never>
        >(adminQuotas, `/admin/quotas?limit=100&org=${o.org.id}`, {}, { headers: console_ })
      ).find((r) => r.orgId === o.org.id && r.regionCode === fleet.region);
    const seen = await row();
    expect(seen?.etag).toMatch(/^"[\w-]+"$/);
    const putWith = (ifMatch: string, nominalGpus: number) =>
      call(
        putQuota,
        "/admin/quotas",
        {},
        {
          method: "PUT",
          headers: { ...console_, "content-type": "application/json", "if-match": ifMatch },
          body: JSON.stringify({ ...k, nominalGpus, borrowingLimitGpus: 0 }),
        },
      );
    // Another operator raises it meanwhile: our change, made on what we saw, is refused.
    await setOrgQuota(op, { ...k, nominalGpus: 6, borrowingLimitGpus: 0 });
    expect((await expectProblem(await putWith(seen?.etag as string, 5), 412)).reason).toBe(
      "precondition_failed",
    );
    expect((await row())?.nominalGpus).toBe(6);
    const fresh = await row();
    const ok = await putWith(fresh?.etag as string, 5);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ nominalGpus: 5, source: "organization" });
    expect(ok.headers.get("etag")).toBe((await row())?.etag);
    session.actor = null;
  });
});

describe("operators' quota table filters", () => {
  it("?org= (slug or id), ?region= and ?gpuModel= narrow the table; a page computes only its rows", async () => {
    const fleet = await newFleet([{ gpus: 8 }]);
    const a = await newOrg("qfilter-a");
    const b = await newOrg("qfilter-b");
    const op = { actor: { ...(a.actor as UserActor), isOperator: true } };
    session.actor = op.actor;
    for (const o of [a, b])
      await setOrgQuota(op, {
        orgId: o.org.id,
        gpuModelId: "h100",
        regionCode: fleet.region,
        nominalGpus: 2,
        borrowingLimitGpus: 0,
      });
    type Row = { orgId: string; regionCode: string; gpuModelId: string };
    const list = (q: string) =>
      allPages<Row, Record<string, never>>(adminQuotas, `/admin/quotas?${q}`, {}, { headers: console_ });
    const bySlug = await list(`org=${a.slug}`);
    expect(bySlug.length).toBeGreaterThan(0);
    expect(new Set(bySlug.map((r) => r.orgId))).toEqual(new Set([a.org.id]));
    expect(await list(`org=${a.org.id}`)).toEqual(bySlug);
    const inRegion = await list(`region=${fleet.region}&gpuModel=h100&limit=1`);
    expect(inRegion.map((r) => r.orgId).sort()).toEqual([a.org.id, b.org.id].sort());
    expect(await list(`org=${b.slug}&gpuModel=a10`)).toEqual([]);
    expect(await list("org=no-such-org")).toEqual([]);
    session.actor = null;
  });
});

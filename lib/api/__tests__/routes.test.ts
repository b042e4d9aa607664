import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as meRoute } from "@/app/api/v1/me/route";
import { GET as offeringsRoute } from "@/app/api/v1/orgs/[org]/catalog/offerings/route";
import { GET as logsRoute } from "@/app/api/v1/orgs/[org]/instances/[id]/logs/route";
import { GET as metricsRoute } from "@/app/api/v1/orgs/[org]/instances/[id]/metrics/route";
import { GET as projectsRoute } from "@/app/api/v1/orgs/[org]/projects/route";
import { GET as exportRoute } from "@/app/api/v1/orgs/[org]/usage/export/route";
import {
  instanceLogsSchema,
  meSchema,
  offeringPageSchema,
  projectListSchema,
  utilizationSeriesSchema,
} from "@/lib/api/openapi/responses";
import { getDb } from "@/lib/db/client";
import { apiTokens, memberships } from "@/lib/db/schema";
import { launch } from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec, type TestFleet } from "@/lib/provisioning/__tests__/fixtures";
import { createApiToken, revokeApiToken } from "@/lib/tenancy";
import { call, expectDocumented, expectProblem, tokenFor } from "./support";

let fleet: TestFleet;
beforeAll(async () => {
  fleet = await newFleet([{ gpus: 8 }]);
});

describe("reads over the API with a token", () => {
  it("GET /me names the user and only the token's organization", async () => {
    const a = await newOrg("me");
    const b = await newOrg("me2");
    await getDb().insert(memberships).values({ orgId: b.org.id, userId: a.user.id, role: "viewer" });
    const token = await tokenFor(a.ctx, a.slug);
    const me = await expectDocumented(await call(meRoute, "/me", {}, { token }), meSchema);
    expect(me).toEqual({
      user: { id: a.user.id, email: a.user.email, name: a.user.name },
      authentication: "token",
      organizations: [{ slug: a.slug, name: a.org.name, role: "owner", allowedJurisdictions: [] }],
    });
  });

  it("lists projects and catalog offerings; a bad catalog filter is a 422 naming it", async () => {
    const o = await newOrg("read");
    const token = await tokenFor(o.ctx, o.slug);
    const projects = await expectDocumented(
      await call(projectsRoute, `/orgs/${o.slug}/projects`, { org: o.slug }, { token }),
      projectListSchema,
    );
    expect(projects.items.map((p) => p.slug)).toEqual(["default"]);

    const q = new URLSearchParams({ region: fleet.region, gpu: "h100", gpuCount: "1", pageSize: "10" });
    const page = await expectDocumented(
      await call(offeringsRoute, `/orgs/${o.slug}/catalog/offerings?${q}`, { org: o.slug }, { token }),
      offeringPageSchema,
    );
    expect(page.items.map((i) => [i.instanceTypeId, i.regionCode])).toEqual([["h100.1x", fleet.region]]);
    expect(page.filters.region).toEqual([fleet.region]);
    // Comma-separated list values work like repeated ones.
    const two = await call(
      offeringsRoute,
      `/orgs/${o.slug}/catalog/offerings?region=${fleet.region},nowhere&gpu=h100`,
      { org: o.slug },
      { token },
    );
    expect((await expectDocumented(two, offeringPageSchema)).filters.region).toEqual([
      fleet.region,
      "nowhere",
    ]);

    const bad = await call(
      offeringsRoute,
      `/orgs/${o.slug}/catalog/offerings?gpuCount=3&pageSize=7`,
      { org: o.slug },
      { token },
    );
    expect(Object.keys((await expectProblem(bad, 422)).errors as object).sort()).toEqual([
      "gpuCount",
      "pageSize",
    ]);
  });

  it("instance logs and metrics are token-capable, and another tenant's instance is 404", async () => {
    const o = await newOrg("read");
    const other = await newOrg("other");
    const token = await tokenFor(o.ctx, o.slug);
    const { instance } = await launch(o.ctx, o.slug, notebookSpec(fleet.region));
    const { instance: theirs } = await launch(other.ctx, other.slug, notebookSpec(fleet.region));
    const params = { org: o.slug, id: instance.id };
    const logs = await call(logsRoute, `/orgs/${o.slug}/instances/${instance.id}/logs`, params, { token });
    expect(await expectDocumented(logs, instanceLogsSchema)).toEqual({ lines: [], live: false });
    const metrics = await call(
      metricsRoute,
      `/orgs/${o.slug}/instances/${instance.id}/metrics?range=6h`,
      params,
      { token },
    );
    expect((await expectDocumented(metrics, utilizationSeriesSchema)).range).toBe("6h");
    const badRange = await call(
      metricsRoute,
      `/orgs/${o.slug}/instances/${instance.id}/metrics?range=9y`,
      params,
      { token },
    );
    await expectProblem(badRange, 422);

    const theirParams = { org: o.slug, id: theirs.id };
    await expectProblem(
      await call(logsRoute, `/orgs/${o.slug}/instances/${theirs.id}/logs`, theirParams, { token }),
      404,
    );
    await expectProblem(
      await call(metricsRoute, `/orgs/${o.slug}/instances/${theirs.id}/metrics`, theirParams, { token }),
      404,
    );
  });

  it("the usage export streams CSV for a token", async () => {
    const o = await newOrg("read");
    const token = await tokenFor(o.ctx, o.slug);
    const res = await call(
      exportRoute,
      `/orgs/${o.slug}/usage/export?from=2030-01-01&to=2030-01-02`,
      { org: o.slug },
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect((await res.text()).split("\r\n")[0]).toMatch(/,/);
  });
});

describe("authentication failures are 401 problems", () => {
  it("no credentials, a malformed header, an unknown, revoked or expired token", async () => {
    const o = await newOrg("auth");
    const path = `/orgs/${o.slug}/projects`;
    const params = { org: o.slug };
    const created = await createApiToken(o.ctx, o.slug, { name: "soon revoked" });
    const expiring = await createApiToken(o.ctx, o.slug, { name: "expiring", expiresInDays: 1 });
    await revokeApiToken(o.ctx, o.slug, { tokenId: created.token.id });
    await getDb()
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expiring.token.id));

    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: "Basic dXNlcjpwYXNz" },
      { authorization: "Bearer" },
      { authorization: `Bearer forja_00000000_${"0".repeat(64)}` },
      { authorization: `Bearer ${created.secret}` },
      { authorization: `Bearer ${expiring.secret}` },
    ];
    for (const headers of attempts) {
      const res = await call(projectsRoute, path, params, { headers });
      await expectProblem(res, 401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="forja"');
    }
  });
});

import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { PUT as authRoute } from "@/app/api/v1/orgs/[org]/services/[id]/auth/route";
import { GET as eventsRoute } from "@/app/api/v1/orgs/[org]/services/[id]/events/route";
import {
  DELETE as deleteRoute,
  GET as getRoute,
  PATCH as patchRoute,
} from "@/app/api/v1/orgs/[org]/services/[id]/route";
import { GET as statsRoute } from "@/app/api/v1/orgs/[org]/services/[id]/stats/route";
import { POST as createRoute, GET as listRoute } from "@/app/api/v1/orgs/[org]/services/route";
import { getDb } from "@/lib/db/client";
import { apiIdempotencyKeys, services } from "@/lib/db/schema";
import { bigQuota, newFleet, newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { seedServiceHistory } from "@/lib/services/__tests__/history";
import { call, expectProblem, postJson, tokenFor } from "./support";

// Every answer below is also checked against the OpenAPI document by `call` (support.ts). Scaling itself
// (gateway, autoscaler, replicas) is tested in lib/services/__tests__.
let o: Awaited<ReturnType<typeof newOrg>>;
let other: Awaited<ReturnType<typeof newOrg>>;
let token: string;
let region: string;
beforeAll(async () => {
  region = (await newFleet([{ gpus: 8 }])).region;
  o = await newOrg("svc-api");
  other = await newOrg("svc-api-other");
  token = await tokenFor(o.ctx, o.slug);
});

const spec = (name: string, over: Record<string, unknown> = {}) => ({
  name,
  image: "pytorch-2.5-cuda12.4",
  instanceType: "h100.1x",
  region,
  minReplicas: 0,
  maxReplicas: 3,
  ...over,
});
const live = async () =>
  (await getDb().select({ n: count() }).from(services).where(eq(services.orgId, o.org.id)))[0]?.n;

describe("services over the API", () => {
  it("refuses a bad spec with field errors and writes nothing", async () => {
    const res = await postJson(
      createRoute,
      `/orgs/${o.slug}/services`,
      { org: o.slug },
      spec("bad", { minReplicas: 3, maxReplicas: 2, target: 0, port: 70000 }),
      { token },
    );
    const body = await expectProblem(res, 422);
    expect(Object.keys(body.errors as object).sort()).toEqual(["maxReplicas", "port", "target"]);
    expect(await live()).toBe(0);
  });

  it("creates with the token once; an Idempotency-Key replay has no token and creates nothing more", async () => {
    const headers = { "idempotency-key": `svc-${o.org.id}` };
    const url = `/orgs/${o.slug}/services`;
    const first = await postJson(createRoute, url, { org: o.slug }, spec("chat"), { token, headers });
    expect(first.status).toBe(201);
    const made = (await first.json()) as { id: string; token: string | null };
    expect(made.token).toMatch(/^fsvc_/);
    const again = await postJson(createRoute, url, { org: o.slug }, spec("chat"), { token, headers });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { token: string | null }).token).toBeNull();
    expect(await live()).toBe(1);
    const stored = await getDb()
      .select()
      .from(apiIdempotencyKeys)
      .where(eq(apiIdempotencyKeys.orgId, o.org.id));
    expect(JSON.stringify(stored)).not.toContain((made.token as string).slice(5));

    const list = (await (await call(listRoute, url, { org: o.slug }, { token })).json()) as {
      items: Array<{ id: string; desired: number; max: number }>;
    };
    expect(list.items).toMatchObject([{ id: made.id, desired: 0, max: 3 }]);
  });

  it("changes scaling with If-Match (stale is a 412, min > max a 422, nothing written), reads stats and events, deletes; another tenant gets 404", async () => {
    const made = (await (
      await postJson(
        createRoute,
        `/orgs/${o.slug}/services`,
        { org: o.slug },
        spec("embed", { auth: "public" }),
        {
          token,
        },
      )
    ).json()) as { id: string; token: string | null };
    expect(made.token).toBeNull();
    const p = { org: o.slug, id: made.id };
    const base = `/orgs/${o.slug}/services/${made.id}`;
    const got = await call(getRoute, base, p, { token });
    expect(await got.clone().json()).toMatchObject({ maxReplicas: 3, desiredReplicas: 0, readyReplicas: 0 });
    const etag = got.headers.get("etag") as string;
    expect(etag).toBeTruthy();
    const patch = (body: unknown, ifMatch?: string) =>
      call(patchRoute, base, p, {
        token,
        method: "PATCH",
        headers: { "content-type": "application/json", ...(ifMatch ? { "if-match": ifMatch } : {}) },
        body: JSON.stringify(body),
      });
    const refused = await expectProblem(await patch({ minReplicas: 5 }, etag), 422);
    expect(Object.keys(refused.errors as object)).toEqual(["maxReplicas"]);
    const saved = await patch({ maxReplicas: 6, target: 8 }, etag);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ maxReplicas: 6, target: 8 });
    await expectProblem(await patch({ maxReplicas: 2 }, etag), 412);
    const [row] = await getDb().select().from(services).where(eq(services.id, made.id));
    expect(row?.spec.maxReplicas).toBe(6);

    const stats = (await (await call(statsRoute, `${base}/stats?range=24h`, p, { token })).json()) as {
      range: string;
      requests: number;
      costPer1000Usd: number | null;
    };
    expect(stats).toMatchObject({ range: "24h", requests: 0, costPer1000Usd: null });
    await expectProblem(await call(statsRoute, `${base}/stats?range=2y`, p, { token }), 422);
    const events = (await (await call(eventsRoute, `${base}/events`, p, { token })).json()) as {
      items: Array<{ code: string }>;
    };
    expect(events.items.map((e) => e.code)).toEqual(["settings_changed", "created"]);

    const strangerToken = await tokenFor(other.ctx, other.slug);
    await expectProblem(await call(getRoute, base, p, { token: strangerToken }), 404);
    await expectProblem(await call(deleteRoute, base, p, { token: strangerToken, method: "DELETE" }), 404);
    const gone = await call(deleteRoute, base, p, { token, method: "DELETE" });
    expect(gone.status).toBe(204);
    await expectProblem(await call(getRoute, base, p, { token }), 404);
  });

  it("answers stats with the 120-step series the page draws (checked against the OpenAPI); a bad range is a 422, another tenant's service a 404", async () => {
    await bigQuota(o.org.id, region);
    const url = `/orgs/${o.slug}/services`;
    const made = (await (
      await postJson(createRoute, url, { org: o.slug }, spec("series", { auth: "public" }), { token })
    ).json()) as { id: string };
    // The API answers at the real time (a token has no test clock).
    await seedServiceHistory(o, made.id, region, new Date());
    const p = { org: o.slug, id: made.id };
    const base = `/orgs/${o.slug}/services/${made.id}/stats`;
    const res = await call(statsRoute, `${base}?range=1h`, p, { token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      requests: number;
      stepSeconds: number;
      series: Array<{ rps: number; desired: number; ready: number; coldStarts: number; costUsd: number }>;
    };
    expect(body).toMatchObject({ requests: 150, stepSeconds: 30 });
    expect(body.series).toHaveLength(120);
    expect(body.series.at(-1)).toMatchObject({ desired: 2, ready: 1 });
    expect(body.series.filter((x) => x.rps > 0)).toHaveLength(2);
    expect(body.series.reduce((a, x) => a + x.coldStarts, 0)).toBe(1);
    expect(body.series.reduce((a, x) => a + x.costUsd, 0)).toBeCloseTo(0.6, 9);
    const week = (await (await call(statsRoute, `${base}?range=7d`, p, { token })).json()) as typeof body;
    expect(week.stepSeconds).toBe(5040);
    expect(week.series.reduce((a, x) => a + x.rps * week.stepSeconds, 0)).toBeCloseTo(150, 9);

    const bad = await expectProblem(await call(statsRoute, `${base}?range=2y`, p, { token }), 422);
    expect(Object.keys(bad.errors as object)).toEqual(["range"]);
    const stranger = await tokenFor(other.ctx, other.slug);
    await expectProblem(await call(statsRoute, `${base}?range=2y`, p, { token: stranger }), 404);
    await expectProblem(await call(statsRoute, base, p, { token: stranger }), 404);
  });

  it("makes a service token-protected (the token in that answer only) and public again; a bad mode is a 422, another tenant a 404", async () => {
    const made = (await (
      await postJson(
        createRoute,
        `/orgs/${o.slug}/services`,
        { org: o.slug },
        spec("gate", { auth: "public" }),
        {
          token,
        },
      )
    ).json()) as { id: string };
    const p = { org: o.slug, id: made.id };
    const url = `/orgs/${o.slug}/services/${made.id}/auth`;
    const put = (body: unknown, as = token) =>
      call(authRoute, url, p, {
        token: as,
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const gated = await put({ auth: "token" });
    expect(gated.status).toBe(200);
    const issued = (await gated.json()) as { auth: string; token: string };
    expect(issued).toMatchObject({ auth: "token", token: expect.stringMatching(/^fsvc_/) });
    const [row] = await getDb().select().from(services).where(eq(services.id, made.id));
    expect(row?.spec.auth).toBe("token");
    expect(row?.tokenHash).toBeTruthy();

    const bad = await expectProblem(await put({ auth: "open" }), 422);
    expect(Object.keys(bad.errors as object)).toEqual(["auth"]);
    await expectProblem(await put({ auth: "public" }, await tokenFor(other.ctx, other.slug)), 404);
    expect(await (await put({ auth: "public" })).json()).toEqual({ auth: "public", token: null });
  });

  it("access changes and deletion honour If-Match: a stale ETag is a 412 that issues no token and deletes nothing", async () => {
    const made = (await (
      await postJson(createRoute, `/orgs/${o.slug}/services`, { org: o.slug }, spec("guard"), { token })
    ).json()) as { id: string };
    const p = { org: o.slug, id: made.id };
    const base = `/orgs/${o.slug}/services/${made.id}`;
    const etagNow = async () => (await call(getRoute, base, p, { token })).headers.get("etag") as string;
    const stale = await etagNow();
    // Someone else changes the service after it was read.
    const changed = await call(patchRoute, base, p, {
      token,
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ maxReplicas: 5 }),
    });
    expect(changed.status).toBe(200);
    const [before] = await getDb().select().from(services).where(eq(services.id, made.id));
    const put = (ifMatch: string) =>
      call(authRoute, `${base}/auth`, p, {
        token,
        method: "PUT",
        headers: { "content-type": "application/json", "if-match": ifMatch },
        body: JSON.stringify({ auth: "token" }),
      });
    expect((await expectProblem(await put(stale), 412)).reason).toBe("precondition_failed");
    const del = (ifMatch: string) =>
      call(deleteRoute, base, p, { token, method: "DELETE", headers: { "if-match": ifMatch } });
    await expectProblem(await del(stale), 412);
    const [after] = await getDb().select().from(services).where(eq(services.id, made.id));
    expect(after).toMatchObject({ deletedAt: null, tokenHash: before?.tokenHash ?? null });
    expect(after?.spec.auth).toBe(before?.spec.auth);

    const gated = await put(await etagNow());
    expect(gated.status).toBe(200);
    expect(((await gated.json()) as { token: string }).token).toMatch(/^fsvc_/);
    expect((await del(await etagNow())).status).toBe(204);
    await expectProblem(await call(getRoute, base, p, { token }), 404);
  });
});

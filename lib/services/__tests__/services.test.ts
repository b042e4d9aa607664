import http from "node:http";
import { and, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { quotas, serviceEvents, serviceReplicas, services } from "@/lib/db/schema";
import { bigQuota, newFleet, newOrg, type TestFleet } from "@/lib/provisioning/__tests__/fixtures";
import { createService, deleteService, SERVICE_FIELD_MESSAGES as M } from "@/lib/services";
import { startServicesRuntime, waitFor } from "./harness";

let fleet: TestFleet;
let rt: Awaited<ReturnType<typeof startServicesRuntime>>;
beforeAll(async () => {
  fleet = await newFleet([{ gpus: 8 }, { gpus: 8 }]);
  rt = await startServicesRuntime(fleet.region, { coldStartMs: 1200 });
});
afterAll(async () => {
  await rt?.stop();
});

const wall = () => ({ now: () => new Date() });

async function newService(over: Record<string, unknown> = {}, quota = true) {
  const o = await newOrg("svc");
  if (quota) await bigQuota(o.org.id, fleet.region);
  const ctx = { ...o.ctx, ...wall() };
  const { service, token } = await createService(ctx, o.slug, {
    name: `m-${Math.random().toString(36).slice(2, 8)}`,
    image: "pytorch-2.5-cuda12.4",
    instanceType: "h100.1x",
    region: fleet.region,
    port: 8000,
    minReplicas: 0,
    maxReplicas: 4,
    metric: "concurrency",
    target: 2,
    scaleUpDelaySeconds: 0,
    scaleDownDelaySeconds: 2,
    scaleToZeroGraceSeconds: 4,
    readiness: { path: "/health", intervalSeconds: 1, timeoutSeconds: 1 },
    ...over,
  });
  const url = `${rt.gateway.url}/${o.slug}/s/${service.name}`;
  const headers = token ? { authorization: `Bearer ${token}` } : ({} as Record<string, string>);
  return { o, ctx, service, token, url, headers };
}

async function replicaCounts(serviceId: string) {
  const r = await getDb().execute<{ active: number; ready: number }>(sql`
    select count(*)::int as active, count(*) filter (where r.ready_at is not null and i.state = 'running')::int as ready
    from service_replicas r join instances i on i.id = r.instance_id
    where r.service_id = ${serviceId} and r.ended_at is null`);
  return r.rows[0] ?? { active: 0, ready: 0 };
}

async function eventCodes(serviceId: string) {
  const rows = await getDb()
    .select({ code: serviceEvents.code, text: serviceEvents.text })
    .from(serviceEvents)
    .where(eq(serviceEvents.serviceId, serviceId))
    .orderBy(serviceEvents.id);
  return rows;
}

/** `concurrency` clients sending requests back to back for `ms` or until `until` says so; every status seen. */
async function load(
  url: string,
  headers: Record<string, string>,
  concurrency: number,
  ms: number,
  until: () => Promise<boolean> = async () => false,
) {
  const statuses: number[] = [];
  const deadline = Date.now() + ms;
  let stop = false;
  const watch = (async () => {
    while (!stop && Date.now() < deadline) {
      if (await until()) stop = true;
      else await new Promise((r) => setTimeout(r, 250));
    }
  })();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!stop && Date.now() < deadline) {
        const r = await fetch(`${url}/v1/completions`, {
          method: "POST",
          headers,
          body: '{"prompt":"hi"}',
        }).catch(() => null);
        statuses.push(r ? r.status : 0);
        await r?.arrayBuffer().catch(() => {});
      }
    }),
  );
  stop = true;
  await watch;
  return statuses;
}

describe("services: spec", () => {
  it.each([
    ["maxReplicas", { minReplicas: 3, maxReplicas: 2 }, M.maxBelowMin],
    ["target", { target: 0 }, M.targetPositive],
    ["port", { port: 70000 }, M.portRange],
    ["readiness.path", { readiness: { path: "health" } }, M.probePath],
    ["name", { name: "Bad_Name" }, M.namePattern],
  ])("refuses a bad %s with its field message and writes nothing", async (field, over, message) => {
    const o = await newOrg("svc-bad");
    const err = await createService(o.ctx, o.slug, {
      name: "ok-name",
      image: "pytorch-2.5-cuda12.4",
      instanceType: "h100.1x",
      region: fleet.region,
      ...over,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).fieldErrors[field]).toEqual([message]);
    expect(await getDb().$count(services, eq(services.orgId, o.org.id))).toBe(0);
  });

  it("refuses a region outside the organization's data residency, naming both", async () => {
    const o = await newOrg("svc-res");
    await getDb().execute(
      sql`update organizations set allowed_jurisdictions = '{US}' where id = ${o.org.id}`,
    );
    const err = await createService(o.ctx, o.slug, {
      name: "eu-only",
      image: "pytorch-2.5-cuda12.4",
      instanceType: "h100.1x",
      region: fleet.region,
    }).catch((e) => e);
    expect((err as ValidationError).fieldErrors.region?.[0]).toMatch(/allows only US; .* is in EU/);
    expect(await getDb().$count(services, eq(services.orgId, o.org.id))).toBe(0);
  });
});

describe("services: gateway, replicas and autoscaler (real gateway, replicas and PostgreSQL)", () => {
  it("a request during scale-from-zero waits, succeeds, and the service goes back to 0 after the grace period", async () => {
    const s = await newService();
    expect(await replicaCounts(s.service.id)).toEqual({ active: 0, ready: 0 });
    // Without the token: 401 and no replica started for it.
    const denied = await fetch(`${s.url}/v1/completions`, { method: "POST", body: "{}" });
    expect(denied.status).toBe(401);
    const began = Date.now();
    const r = await fetch(`${s.url}/v1/completions`, { method: "POST", headers: s.headers, body: "{}" });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { replica: string; path: string };
    expect(body.path).toBe("/v1/completions");
    // It waited for the cold start (1.2 s) at least.
    expect(Date.now() - began).toBeGreaterThanOrEqual(1200);
    const codes = (await eventCodes(s.service.id)).map((e) => e.code);
    expect(codes).toEqual(expect.arrayContaining(["scale_from_zero", "replica_launched", "replica_ready"]));
    await waitFor("scale to zero", async () => (await replicaCounts(s.service.id)).active === 0, 30_000);
    expect((await eventCodes(s.service.id)).map((e) => e.code)).toContain("scaled_to_zero");
  });

  it("scales 0 → N under generated load, spreads it across replicas, and back to 0", async () => {
    const s = await newService();
    // 12 clients against a target of 2 concurrent requests per replica want 6, capped at max 4.
    let peak = 0;
    const statuses = await load(s.url, s.headers, 12, 45_000, async () => {
      peak = Math.max(peak, (await replicaCounts(s.service.id)).ready);
      return peak >= 4;
    });
    // On a loaded machine the fourth cold start may not finish within the load; the decision must reach 4.
    expect(peak).toBeGreaterThanOrEqual(3);
    const [row] = await getDb().select().from(services).where(eq(services.id, s.service.id));
    const decided = (await eventCodes(s.service.id)).some((e) => /→ 4/.test(e.text));
    expect(decided || row?.desiredReplicas === 4).toBe(true);
    expect(statuses.filter((c) => c !== 200)).toEqual([]);
    const events = await eventCodes(s.service.id);
    // From zero the first decision may already ask for several (the held requests count); later ones name the windows.
    const ups = events.filter((e) => ["scale_from_zero", "scaled_up", "panic_scale_up"].includes(e.code));
    expect(ups.length).toBeGreaterThan(0);
    for (const e of ups.filter((x) => x.code !== "scale_from_zero"))
      expect(e.text).toMatch(/concurrent requests [\d.]+ over/);
    await rt.gateway.flush();
    const traffic = await getDb().execute<{ requests: number }>(
      sql`select coalesce(sum(requests), 0)::int as requests from service_traffic where service_id = ${s.service.id}`,
    );
    expect(traffic.rows[0]?.requests).toBeGreaterThan(100);
    await waitFor("back to zero", async () => (await replicaCounts(s.service.id)).active === 0, 40_000);
  });

  it("a killed replica is replaced; requests in flight fail over or fail cleanly", async () => {
    const s = await newService({ minReplicas: 2, scaleToZeroGraceSeconds: 60 });
    await waitFor("two ready replicas", async () => (await replicaCounts(s.service.id)).ready >= 2, 30_000);
    const [victim] = await getDb()
      .select()
      .from(serviceReplicas)
      .where(and(eq(serviceReplicas.serviceId, s.service.id), isNull(serviceReplicas.endedAt)))
      .limit(1);
    const traffic = load(s.url, s.headers, 6, 4000);
    await new Promise((r) => setTimeout(r, 800));
    rt.host.kill(victim?.id as string);
    const statuses = await traffic;
    // Every answer is a success or a clean gateway error — never a hang or a dropped connection.
    expect(statuses.every((c) => c === 200 || c === 502)).toBe(true);
    expect(statuses.filter((c) => c === 200).length).toBeGreaterThan(statuses.length * 0.9);
    await waitFor(
      "a replacement",
      async () => {
        const [gone] = await getDb()
          .select()
          .from(serviceReplicas)
          .where(eq(serviceReplicas.id, victim?.id as string));
        return gone?.endedAt && (await replicaCounts(s.service.id)).ready >= 2;
      },
      30_000,
    );
    expect((await eventCodes(s.service.id)).map((e) => e.code)).toContain("replica_unhealthy");
    await deleteService(s.ctx, s.o.slug, s.service.id);
    await waitFor(
      "replicas ended after delete",
      async () => (await replicaCounts(s.service.id)).active === 0,
    );
    expect((await fetch(`${s.url}/`, { headers: s.headers })).status).toBe(404);
  });

  it("the organization's quota caps the replicas, with the reason on the service", async () => {
    const s = await newService({ minReplicas: 3, maxReplicas: 3 }, false);
    await getDb()
      .insert(quotas)
      .values({ orgId: s.o.org.id, gpuModelId: "h100", regionCode: fleet.region, maxGpus: 2 });
    await waitFor("two replicas and a refusal", async () => {
      const c = await replicaCounts(s.service.id);
      const refused = (await eventCodes(s.service.id)).find((e) => e.code === "replica_refused");
      return c.active === 2 && refused;
    });
    const refused = (await eventCodes(s.service.id)).find((e) => e.code === "replica_refused");
    expect(refused?.text).toMatch(/Replica 3 refused: .*quota/i);
    await deleteService(s.ctx, s.o.slug, s.service.id);
  });
});

describe("services: streaming and WebSocket through the gateway", () => {
  it("streams server-sent tokens as they come and passes a WebSocket through to the replica", async () => {
    const s = await newService({ minReplicas: 1, auth: "public", scaleToZeroGraceSeconds: 60 });
    expect(s.token).toBeNull();
    await waitFor("a ready replica", async () => (await replicaCounts(s.service.id)).ready >= 1, 30_000);
    const r = await fetch(`${s.url}/v1/stream?stream=5`);
    expect(r.headers.get("content-type")).toBe("text/event-stream");
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    const chunks: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(new TextDecoder().decode(value));
    }
    // More than one chunk: the gateway did not buffer the answer.
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join("")).toContain('data: {"token":4}');

    const echoed = await new Promise<string>((resolve, reject) => {
      const u = new URL(`${s.url}/ws`);
      const req = http.request({
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        headers: {
          connection: "Upgrade",
          upgrade: "websocket",
          "sec-websocket-version": "13",
          "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        },
      });
      req.on("upgrade", (res, socket) => {
        expect(res.headers["sec-websocket-accept"]).toBe("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
        const mask = Buffer.from([1, 2, 3, 4]);
        const text = Buffer.from("hello replica");
        const masked = Buffer.from(text.map((b, i) => b ^ (mask[i % 4] as number)));
        socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | text.length]), mask, masked]));
        socket.once("data", (d: Buffer) => {
          resolve(d.subarray(2).toString());
          socket.destroy();
        });
      });
      req.on("error", reject);
      req.end();
    });
    expect(echoed).toBe("hello replica");
    await deleteService(s.ctx, s.o.slug, s.service.id);
  });
});

import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { checkCapacityInvariants, seedDefaultQuotas, setProvider } from "@/lib/provisioning";
import { simulatedProvider } from "@/lib/provisioning/providers/simulated";
import {
  type BackfillResult,
  backfillHistory,
  ingestMetrics,
  queueWaitSeries,
  rollupMetrics,
  utilizationSeries,
} from "@/lib/telemetry";
import { planHistory } from "@/lib/telemetry/history-plan";
import { mirrorRegions, tenantWithCatalog } from "./fixtures";

const H = 3_600_000;
const DAY = 24 * H;
// Long before any other test's clock, so the global scheduler/reconciler passes of the back-fill never reach
// another test's instances (their deadlines all lie later).
const NOW = new Date("2019-06-05T15:30:00Z");

let tenant: Awaited<ReturnType<typeof tenantWithCatalog>>;
let regions: Record<string, string>;
let result: BackfillResult;

const q = async <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  (await getDb().execute<T>(query)).rows;

beforeAll(async () => {
  setProvider(simulatedProvider);
  tenant = await tenantWithCatalog("history");
  regions = await mirrorRegions(["eu-es-mad1", "eu-de-fra1", "eu-fi-hel1"]);
  await getDb().transaction((tx) => seedDefaultQuotas(tx, tenant.org.id));
  const projects = ["research", "staging", "inference-prod"];
  for (const slug of projects) {
    await getDb().execute(sql`
      insert into projects (org_id, slug, name, environment)
      values (${tenant.org.id}, ${slug}, ${slug}, 'development') on conflict do nothing`);
  }
  result = await backfillHistory(tenant.ctx, {
    orgId: tenant.org.id,
    days: 30,
    now: NOW,
    seed: 7,
    regionMap: regions,
  });
  console.log("[history] back-fill of 30 days:", JSON.stringify(result));
}, 300_000);

describe("backfillHistory (30 days through the real engine)", () => {
  it("produces 30 days of lifecycle history and leaves running, queued and stopped instances", async () => {
    const [span] = await q<{ first: string; last: string }>(sql`
      select min(at) as first, max(at) as last from instance_events where org_id = ${tenant.org.id}`);
    expect(NOW.getTime() - new Date(span?.first as string).getTime()).toBeGreaterThan(29 * DAY);
    expect(new Date(span?.last as string).getTime()).toBeLessThanOrEqual(NOW.getTime());
    expect(result.states.running).toBeGreaterThanOrEqual(3);
    expect(result.states.queued).toBeGreaterThanOrEqual(1);
    expect(result.states.stopped).toBeGreaterThanOrEqual(1);
    expect(result.states.terminated).toBeGreaterThanOrEqual(5);
    expect(result.instances).toBeGreaterThan(30);
    // Every instance's events chain: each event starts where the previous one ended.
    const broken = await q(sql`
      select e.id from instance_events e
      cross join lateral (select p.to_state from instance_events p where p.instance_id = e.instance_id
        and (p.at, p.id) < (e.at, e.id) order by p.at desc, p.id desc limit 1) prev
      where e.org_id = ${tenant.org.id} and e.from_state is distinct from prev.to_state`);
    expect(broken).toEqual([]);
  });

  it("keeps the capacity invariant and releases every allocation of an instance that left its node", async () => {
    for (const regionCode of Object.values(regions)) {
      expect(await checkCapacityInvariants(getDb(), { regionCode })).toEqual([]);
    }
    const [alloc] = await q<{ n: number }>(
      sql`select count(*)::int as n from gpu_allocations where org_id = ${tenant.org.id}`,
    );
    expect(Number(alloc?.n)).toBeGreaterThan(50);
  });

  it("records real queue waits: jobs behind a full Madrid H100 pool waited for hours", async () => {
    const s = await queueWaitSeries(tenant.ctx, {
      regionCode: regions["eu-es-mad1"],
      range: "30d",
      now: NOW,
    });
    const waits = s.points.reduce((a, p) => a + p.count, 0);
    expect(waits).toBeGreaterThan(20);
    expect(Math.max(...s.points.map((p) => p.p95Seconds ?? 0))).toBeGreaterThan(H / 1000);
    expect(s.depth.find((d) => d.gpuModelId === "h100")?.queued).toBeGreaterThanOrEqual(1);
  });

  it("writes rollups for the whole window and raw samples only for the last day, consistent with the SQL rollup", async () => {
    const [raw] = await q<{ first: string; n: number }>(sql`
      select min(at) as first, count(*)::int as n from metric_samples where org_id = ${tenant.org.id}`);
    expect(Number(raw?.n)).toBe(result.rawSamples);
    expect(new Date(raw?.first as string).getTime()).toBeGreaterThanOrEqual(NOW.getTime() - DAY);
    const [roll] = await q<{ days: number }>(sql`
      select count(distinct date_trunc('day', bucket))::int as days from metric_rollups_5m
      where org_id = ${tenant.org.id}`);
    expect(Number(roll?.days)).toBeGreaterThanOrEqual(30);
    // The worker's rollup over the raw day finds nothing to change: the back-fill wrote the same aggregates.
    const again = await rollupMetrics(systemCtx("t"), { now: NOW, lookbackMs: 23 * H, overlapMs: 23 * H });
    expect(again.buckets).toBe(0);
    const diff = await q<{ d: number }>(sql`
      select max(abs(r.power_avg - s.p))::float8 as d from metric_rollups_5m r
      join lateral (select avg(power_watts) as p from metric_samples m where m.instance_id = r.instance_id
        and m.gpu_index = r.gpu_index and m.at >= r.bucket and m.at < r.bucket + interval '5 minutes') s on true
      where r.org_id = ${tenant.org.id} and r.bucket >= ${new Date(NOW.getTime() - 20 * H)}`);
    expect(Number(diff[0]?.d)).toBeLessThan(0.01);
    // No metrics while an instance was down: nothing after the stop of a stopped instance.
    const late = await q(sql`
      select i.id from instances i join metric_rollups_5m r on r.instance_id = i.id
      where i.org_id = ${tenant.org.id} and i.state in ('stopped', 'terminated') and r.bucket > i.stopped_at`);
    expect(late).toEqual([]);
  });

  it("fills the 30-day chart of the long-running inference service", async () => {
    const [svc] = await q<{ id: string }>(sql`
      select id from instances where org_id = ${tenant.org.id} and name = 'chat-api'`);
    const s = await utilizationSeries(tenant.ctx, tenant.org.slug, svc?.id as string, {
      range: "30d",
      now: NOW,
    });
    const filled = s.average.filter((p) => p.v !== null).length;
    expect(filled / s.average.length).toBeGreaterThan(0.95);
    const day = await utilizationSeries(tenant.ctx, tenant.org.slug, svc?.id as string, {
      range: "24h",
      now: NOW,
    });
    expect(day.average.filter((p) => p.v !== null).length / day.average.length).toBeGreaterThan(0.95);
  });
});

describe("after the back-fill, the live worker", () => {
  it("continues the raw samples of running instances without a gap", async () => {
    const [svc] = await q<{ id: string; gpu_count: number }>(sql`
      select id, gpu_count from instances where org_id = ${tenant.org.id} and name = 'chat-api'`);
    const last = async () =>
      Number(
        (
          await q<{ ms: number }>(sql`select (extract(epoch from max(at)) * 1000)::float8 as ms
            from metric_samples where instance_id = ${svc?.id}`)
        )[0]?.ms,
      );
    const before = await last();
    expect(NOW.getTime() - before).toBeLessThan(10_000);
    await ingestMetrics(systemCtx("t"), { now: new Date(NOW.getTime() + 60_000) });
    const after = await q<{ n: number }>(sql`select count(*)::int as n from metric_samples
      where instance_id = ${svc?.id} and at > ${new Date(before)}`);
    expect(Number(after[0]?.n)).toBe(6 * Number(svc?.gpu_count));
  });
});

describe("planHistory", () => {
  it("is a pure function of its seed", () => {
    const a = planHistory({ now: NOW, days: 30, seed: 1, profile: "demo" });
    expect(planHistory({ now: NOW, days: 30, seed: 1, profile: "demo" })).toEqual(a);
    expect(planHistory({ now: NOW, days: 30, seed: 2, profile: "demo" })).not.toEqual(a);
    expect(a.every((x, i) => i === 0 || x.at >= (a[i - 1] as (typeof a)[number]).at)).toBe(true);
    const small = planHistory({ now: NOW, days: 1, seed: 1, profile: "small" });
    expect(small.filter((x) => x.type === "launch").length).toBeLessThanOrEqual(3);
  });
});

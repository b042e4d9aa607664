import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { orgAccessSql } from "@/lib/access";
import { type Ctx, NotFoundError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { instanceEvents, memberships, metricSamples } from "@/lib/db/schema";
import { addMember } from "@/test/factories";
import { queueWaitsByOffering } from "../queries-charts";
import { utilizationSeries } from "../series";
import { type ChartHeadRow, chartHeadQuery } from "../series-sql";
import { insertInstance, newRegion, tenantWithCatalog } from "./fixtures";

const HOUR = 3_600_000;
// A fixed clock on an hour boundary, so the 1 h range has 5-minute buckets starting exactly at `from`.
const NOW = new Date("2026-06-10T12:00:00Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);

/** One wait of `waitMs` for an instance in the region, ending (queued → provisioning) at `endedAt`. */
async function recordWait(
  t: Awaited<ReturnType<typeof tenantWithCatalog>>,
  regionCode: string,
  endedAt: Date,
  waitMs: number,
  gpuModelId = "h100",
) {
  const inst = await insertInstance(t, {
    regionCode,
    gpuModelId,
    instanceTypeId: gpuModelId === "h100" ? "h100.1x" : "l4.1x",
    gpuCount: 1,
    state: "provisioning",
    createdAt: new Date(endedAt.getTime() - waitMs),
  });
  const base = { orgId: t.org.id, instanceId: inst.id, reason: "test", actorKind: "scheduler" };
  await getDb()
    .insert(instanceEvents)
    .values([
      { ...base, fromState: "requested", toState: "queued", at: new Date(endedAt.getTime() - waitMs) },
      { ...base, fromState: "queued", toState: "provisioning", at: endedAt },
    ]);
}

describe("queueWaitsByOffering", () => {
  it("computes p50/p95 per region × GPU model per bucket, with the range's edges handled exactly", async () => {
    const t = await tenantWithCatalog("qc");
    const { code } = await newRegion([
      { gpus: 8, model: "h100", createdAt: ago(48 * HOUR) },
      { gpus: 4, model: "l4", createdAt: ago(48 * HOUR) },
    ]);
    // First bucket [11:00, 11:05): waits of 1, 2, 3, 4 and 10 minutes; p50 = 3 min, p95 = 8.8 min.
    for (const [i, m] of [1, 2, 3, 4, 10].entries())
      await recordWait(t, code, ago(HOUR - 1000 * (i + 1)), m * 60_000);
    // Exactly at `from` (11:00): outside the half-open window (from, now].
    await recordWait(t, code, ago(HOUR), 99 * 60_000);
    // Exactly at `now` (12:00): inside, in the last bucket [12:00, 12:05).
    await recordWait(t, code, NOW, 30_000);
    // Older than the range: not counted.
    await recordWait(t, code, ago(2 * HOUR), 50 * 60_000);

    const res = await queueWaitsByOffering(t.ctx, { regionCode: code, range: "1h", now: NOW });
    expect(res.series.map((s) => s.gpuModelId)).toEqual(["h100", "l4"]);
    const [h100, l4] = res.series;
    // 11:00 … 12:00 inclusive in 5-minute buckets.
    expect(h100?.points).toHaveLength(13);
    expect(h100?.points[0]?.t).toBe(ago(HOUR).getTime());
    expect(h100?.points.at(-1)?.t).toBe(NOW.getTime());
    expect(h100?.waits).toBe(6);
    expect(h100?.points[0]).toMatchObject({ count: 5, p50Seconds: 180, p95Seconds: 528 });
    expect(h100?.points.at(-1)).toMatchObject({ count: 1, p50Seconds: 30, p95Seconds: 30 });
    expect(h100?.points.slice(1, -1).every((p) => p.count === 0 && p.p50Seconds === null)).toBe(true);
    // A GPU model with capacity but no waits is still listed, with empty buckets.
    expect(l4?.waits).toBe(0);
    expect(l4?.points.every((p) => p.p50Seconds === null)).toBe(true);
  });

  it("narrows to one GPU model and orders pairs busiest first", async () => {
    const t = await tenantWithCatalog("qc");
    const { code } = await newRegion([
      { gpus: 8, model: "h100", createdAt: ago(48 * HOUR) },
      { gpus: 4, model: "l4", createdAt: ago(48 * HOUR) },
    ]);
    await recordWait(t, code, ago(10 * 60_000), 60_000, "l4");
    await recordWait(t, code, ago(20 * 60_000), 60_000, "l4");
    await recordWait(t, code, ago(30 * 60_000), 60_000, "h100");
    const all = await queueWaitsByOffering(t.ctx, { regionCode: code, range: "6h", now: NOW });
    expect(all.series.map((s) => [s.gpuModelId, s.waits])).toEqual([
      ["l4", 2],
      ["h100", 1],
    ]);
    const one = await queueWaitsByOffering(t.ctx, {
      regionCode: code,
      gpuModelId: "h100",
      range: "6h",
      now: NOW,
    });
    expect(one.series.map((s) => s.gpuModelId)).toEqual(["h100"]);
  });

  it("refuses an unknown range with a validation error", async () => {
    const t = await tenantWithCatalog("qc");
    await expect(queueWaitsByOffering(t.ctx, { range: "2h" as "1h", now: NOW })).rejects.toMatchObject({
      code: "validation",
    });
  });
});

// The metrics route handler (app/api/v1/orgs/[org]/instances/[id]/metrics) is a thin adapter over
// utilizationSeries; these pin the scoping it relies on.
describe("instance metrics scoping (metrics route)", () => {
  async function runningWithSamples() {
    const t = await tenantWithCatalog("mc");
    const inst = await insertInstance(t, { createdAt: ago(HOUR), startedAt: ago(HOUR) });
    await getDb()
      .insert(metricSamples)
      .values(
        [0, 1].map((gpuIndex) => ({
          instanceId: inst.id,
          gpuIndex,
          at: ago(60_000),
          orgId: t.org.id,
          utilizationPct: 40 + gpuIndex * 20,
          memoryUsedGib: 10,
          powerWatts: 300,
          temperatureC: 60,
        })),
      );
    return { t, inst };
  }

  it("gives the instance's own organization its series", async () => {
    const { t, inst } = await runningWithSamples();
    const res = await utilizationSeries(t.ctx, t.org.slug, inst.id, { range: "1h", now: NOW });
    expect(res.average.filter((p) => p.v !== null).map((p) => p.v)).toEqual([50]);
  });

  it("answers NotFound to a member of another organization, by either organization's URL", async () => {
    const { t, inst } = await runningWithSamples();
    const other = await tenantWithCatalog("mc-other");
    await expect(utilizationSeries(other.ctx, t.org.slug, inst.id, { now: NOW })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(utilizationSeries(other.ctx, other.org.slug, inst.id, { now: NOW })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(utilizationSeries(t.ctx, t.org.slug, randomUUID(), { now: NOW })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it("lets a viewer read the series", async () => {
    const { t, inst } = await runningWithSamples();
    const viewer = await addMember(t.org.id, "viewer");
    const res = await utilizationSeries(viewer.ctx, t.org.slug, inst.id, { range: "1h", now: NOW });
    expect(res.gpus.map((g) => g.points.filter((p) => p.v !== null).map((p) => p.v))).toEqual([[40], [60]]);
  });

  // The access check and the instance are one statement (chartHeadQuery): it must read nothing for a request
  // the gate refuses, not only be refused after reading.
  it("reads no row for a stranger or a token of another organization, and no instance of another organization", async () => {
    const { t, inst } = await runningWithSamples();
    const other = await tenantWithCatalog("mc-token");
    const head = async (ctx: Ctx, slug: string) => {
      const access = orgAccessSql(ctx, slug);
      if (!access) throw new Error(`${slug} is a slug`);
      return (await getDb().execute<ChartHeadRow>(chartHeadQuery(access, inst.id))).rows;
    };
    expect(await head(t.ctx, t.org.slug)).toMatchObject([
      { org_id: t.org.id, org_role: "owner", gpu_count: 2 },
    ]);
    expect(await head(other.ctx, t.org.slug)).toEqual([]);
    // Another organization's own row, but not the instance.
    expect(await head(other.ctx, other.org.slug)).toMatchObject([{ org_id: other.org.id, gpu_count: null }]);
    // A member of both organizations, acting with a token of the other one.
    const both = await addMember(t.org.id, "member");
    await getDb().insert(memberships).values({ orgId: other.org.id, userId: both.user.id, role: "member" });
    const token: Ctx = { actor: { ...both.actor, tokenOrgId: other.org.id, tokenScope: "read" } };
    expect(await head(token, t.org.slug)).toEqual([]);
    await expect(utilizationSeries(token, t.org.slug, inst.id, { now: NOW })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const own: Ctx = { actor: { ...both.actor, tokenOrgId: t.org.id, tokenScope: "read" } };
    const res = await utilizationSeries(own, t.org.slug, inst.id, { range: "1h", now: NOW });
    expect(res.summary.mean).toBe(50);
  });
});

import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { MIN_RAW_RETENTION_DAYS, pruneRawSamples, rawRetentionDays } from "@/lib/telemetry";
import { count, countSamples, insertInstance, tenantWithCatalog } from "./fixtures";

const DAY = 86_400_000;
// Long before every other test's clock: the pass is fleet-wide, and only this file's instance is that old.
const T = new Date("2019-06-01T12:00:00Z");

async function sampleAt(instanceId: string, orgId: string, at: Date) {
  await getDb().execute(sql`
    insert into metric_samples (instance_id, gpu_index, at, org_id, utilization_pct, memory_used_gib, power_watts,
      temperature_c)
    select ${instanceId}, g, ${at}, ${orgId}, 50, 10, 300, 60 from generate_series(0, 1) g`);
}

describe("raw sample retention", () => {
  it("deletes raw samples older than the retention on every GPU, and keeps the newer ones and the rollups", async () => {
    const t = await tenantWithCatalog("ret");
    const inst = await insertInstance(t, {
      createdAt: new Date(T.getTime() - 12 * DAY),
      startedAt: new Date(T.getTime() - 12 * DAY),
    });
    for (const daysAgo of [11, 9, 7.9, 1 / 24])
      await sampleAt(inst.id, t.org.id, new Date(T.getTime() - daysAgo * DAY));
    await getDb().execute(sql`
      insert into metric_rollups_5m (instance_id, gpu_index, bucket, org_id, samples, utilization_avg, utilization_max,
        memory_used_avg, power_avg, temperature_avg)
      values (${inst.id}, 0, ${new Date(T.getTime() - 11 * DAY)}, ${t.org.id}, 30, 50, 50, 10, 300, 60)`);

    const res = await pruneRawSamples(systemCtx("retention-test"), { now: T, keepDays: 8 });
    expect(res.cutoff).toEqual(new Date(T.getTime() - 8 * DAY));
    expect(res.deleted).toBe(4);
    expect(await countSamples(inst.id)).toBe(4);
    expect(
      await count(
        sql`select count(*)::int as n from metric_samples where instance_id = ${inst.id} and at < ${res.cutoff}`,
      ),
    ).toBe(0);
    expect(
      await count(sql`select count(*)::int as n from metric_rollups_5m where instance_id = ${inst.id}`),
    ).toBe(1);
    // A second pass finds nothing more.
    expect((await pruneRawSamples(systemCtx("retention-test"), { now: T, keepDays: 8 })).deleted).toBe(0);
  });

  it("reads the retention from FORJA_RAW_SAMPLE_RETENTION_DAYS, never under the minimum the rollups need", () => {
    expect(rawRetentionDays({})).toBe(8);
    expect(rawRetentionDays({ FORJA_RAW_SAMPLE_RETENTION_DAYS: "30" })).toBe(30);
    expect(rawRetentionDays({ FORJA_RAW_SAMPLE_RETENTION_DAYS: "0" })).toBe(MIN_RAW_RETENTION_DAYS);
    expect(MIN_RAW_RETENTION_DAYS).toBe(2);
    expect(() => rawRetentionDays({ FORJA_RAW_SAMPLE_RETENTION_DAYS: "a week" })).toThrow(/number of days/);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { ForbiddenError, NotFoundError, systemCtx, type ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { metricRollups, projects, serviceReplicas } from "@/lib/db/schema";
import {
  dailyCost,
  energyByMonth,
  exportLedgerCsv,
  forecastMonthEnd,
  meterUsage,
  monthlyEnergy,
  monthToDate,
  purchaseReservation,
  quoteReservation,
  savings,
  topInstances,
} from "@/lib/metering";
import { createService } from "@/lib/services";
import { type BillingCatalog, billingCatalog, newBillingOrg, scriptedInstance, testClock } from "./fixtures";

let cat: BillingCatalog;
beforeAll(async () => {
  cat = await billingCatalog();
});

const up = (at: string): Array<[string, string]> => [
  [at, "provisioning"],
  [at, "running"],
];

/** Two projects; on-demand "alpha" runs from Mar 10 00:00 ($2.50/h), spot "beta" Mar 11 00:00–06:00 ($0.80/h). */
async function explorerOrg(now = "2030-03-11T10:30:00Z") {
  const clock = testClock(now);
  const org = await newBillingOrg(clock, "cost");
  const [batch] = await getDb()
    .insert(projects)
    .values({ orgId: org.org.id, slug: "batch", name: "Batch", createdAt: new Date() })
    .returning();
  if (!batch) throw new Error("project");
  const alpha = await scriptedInstance(org, cat, up("2030-03-10T00:00:00Z"), { name: "alpha" });
  const beta = await scriptedInstance(
    org,
    cat,
    [
      ...up("2030-03-11T00:00:00Z"),
      ["2030-03-11T06:00:00Z", "stopping"],
      ["2030-03-11T06:00:00Z", "stopped"],
      ["2030-03-11T06:00:00Z", "terminating"],
    ],
    { name: "beta", pricing: "spot", projectId: batch.id },
  );
  await meterUsage(systemCtx("metering"), { now: clock.now(), orgIds: [org.org.id] });
  return { org, clock, alpha, beta, batch };
}

describe("cost explorer queries", () => {
  it("month-to-date includes the unmetered current hour; the forecast says how it was made", async () => {
    const { org } = await explorerOrg();
    // Metered to 10:00: alpha 34 h × 2.50 = 85.00, beta 6 h × 0.80 = 4.80; the last 30 min of alpha: 1.25.
    const mtd = await monthToDate(org.ctx, org.slug);
    expect(mtd).toMatchObject({ period: "2030-03", meteredUsd: 89.8, accruedUsd: 1.25, actualUsd: 91.05 });
    expect(mtd.meteredUntil?.toISOString()).toBe("2030-03-11T10:00:00.000Z");
    const f = await forecastMonthEnd(org.ctx, org.slug);
    // Burn now 2.50/h vs the average so far (89.80 over 34 h = 2.64/h): the higher, for the 493.5 h left.
    expect(f.remainingHours).toBe(493.5);
    expect(f.trendPerHourUsd).toBeCloseTo(89.8 / 34, 3);
    expect(f.forecastUsd).toBeCloseTo(91.05 + (89.8 / 34) * 493.5, 1);
    expect(f.method).toMatch(
      /higher of the current burn rate .* and the average hourly spend of the last 7 days/,
    );
    const batchOnly = await forecastMonthEnd(org.ctx, org.slug, { project: "batch" });
    expect(batchOnly.actualUsd).toBe(4.8);
    expect(batchOnly.burnPerHourUsd).toBe(0);
  });

  it("groups daily cost in SQL by project, GPU model, region and pricing model", async () => {
    const { org, batch } = await explorerOrg();
    const range = { from: "2030-03-01", to: "2030-04-01" };
    const byProject = await dailyCost(org.ctx, org.slug, { ...range, groupBy: "project" });
    expect(byProject.rows).toHaveLength(3);
    expect(byProject.rows[0]).toEqual({ day: "2030-03-10", key: org.project.id, amountUsd: 60 });
    expect(byProject.rows.slice(1)).toEqual(
      expect.arrayContaining([
        { day: "2030-03-11", key: batch.id, amountUsd: 4.8 },
        { day: "2030-03-11", key: org.project.id, amountUsd: 25 },
      ]),
    );
    expect(byProject.groups.map((g) => [g.label, g.amountUsd])).toEqual([
      ["Default", 85],
      ["Batch", 4.8],
    ]);
    const byModel = await dailyCost(org.ctx, org.slug, { ...range, groupBy: "pricing_model" });
    expect(byModel.groups.map((g) => [g.key, g.amountUsd])).toEqual([
      ["on_demand", 85],
      ["spot", 4.8],
    ]);
    const byRegion = await dailyCost(org.ctx, org.slug, { ...range, groupBy: "region" });
    expect(byRegion.groups).toHaveLength(1);
    expect(byRegion.totalUsd).toBeCloseTo(89.8, 6);
    const err = await dailyCost(org.ctx, org.slug, { from: "2030-03-05", to: "2030-03-01" }).catch(
      (e: unknown) => e,
    );
    expect(Object.keys((err as ValidationError).fieldErrors)).toEqual(["to"]);
  });

  it("groups daily cost by inference service: a replica's instance under its service, others apart", async () => {
    const { org, beta } = await explorerOrg();
    const { service } = await createService(org.ctx, org.slug, {
      name: "llm",
      image: "pytorch-2.5-cuda12.4",
      instanceType: cat.type1x,
      region: cat.region,
    });
    await getDb()
      .insert(serviceReplicas)
      .values({
        orgId: org.org.id,
        serviceId: service.id,
        instanceId: beta.id,
        ordinal: 1,
        pricingModel: "spot",
        createdAt: new Date("2030-03-11T00:00:00Z"),
      });
    const byService = await dailyCost(org.ctx, org.slug, {
      from: "2030-03-01",
      to: "2030-04-01",
      groupBy: "service",
    });
    expect(byService.groups.map((g) => [g.key, g.label, g.amountUsd])).toEqual([
      ["none", "Not a service", 85],
      [service.id, "llm", 4.8],
    ]);
  });

  it("lists top instances, savings against on-demand, and streams the ledger as CSV", async () => {
    const { org } = await explorerOrg();
    const top = await topInstances(org.ctx, org.slug, { from: "2030-03-01", to: "2030-04-01" });
    expect(top.map((t) => [t.name, t.amountUsd, t.computeHours])).toEqual([
      ["alpha", 85, 34],
      ["beta", 4.8, 6],
    ]);
    const s = await savings(org.ctx, org.slug, { from: "2030-03-01", to: "2030-04-01" });
    expect(s.spotSavingsUsd).toBeCloseTo((2.5 - 0.8) * 6, 6);
    expect(s.reservations).toEqual([]);

    const csv = await exportLedgerCsv(org.ctx, org.slug, {
      from: "2030-03-11",
      to: "2030-03-12",
      project: "batch",
    });
    expect(csv.filename).toBe(`forja-usage-${org.slug}-2030-03-11-2030-03-12.csv`);
    const lines: string[] = [];
    for await (const line of csv.lines) lines.push(line);
    expect(lines[0]).toBe(
      "id,entry,correction_of,kind,period_start,period_end,seconds,project,instance_id,instance_name,reservation_id," +
        "instance_type,gpu_model,region,pricing_model,quantity,unit,unit_price,amount,currency\r\n",
    );
    expect(lines).toHaveLength(7);
    expect(lines[1]).toContain(",usage,,compute,2030-03-11T00:00:00Z,2030-03-11T01:00:00Z,3600,batch,");
    expect(lines[1]?.endsWith(",spot,1.000000,instance-hour,0.80000000,0.800000,USD\r\n")).toBe(true);
    // Keyset pages of 4 rows give the same lines in the same order.
    const paged = await exportLedgerCsv(
      org.ctx,
      org.slug,
      { from: "2030-03-01", to: "2030-04-01" },
      { batchSize: 4 },
    );
    const all = await exportLedgerCsv(org.ctx, org.slug, { from: "2030-03-01", to: "2030-04-01" });
    const collect = async (g: AsyncGenerator<string>) => {
      const out: string[] = [];
      for await (const l of g) out.push(l);
      return out;
    };
    const pagedLines = await collect(paged.lines);
    expect(pagedLines).toHaveLength(1 + 34 + 6);
    expect(pagedLines).toEqual(await collect(all.lines));
  });

  it("estimates energy and carbon from the power rollups with the region's PUE and grid intensity", async () => {
    const { org, alpha } = await explorerOrg();
    // 12 five-minute buckets of 30 samples at 500 W on one GPU: 1 hour at 0.5 kW = 0.5 kWh of board energy.
    await getDb()
      .insert(metricRollups)
      .values(
        Array.from({ length: 12 }, (_, i) => ({
          instanceId: alpha.id,
          gpuIndex: 0,
          bucket: new Date(Date.UTC(2030, 2, 10, 1, i * 5)),
          orgId: org.org.id,
          samples: 30,
          utilizationAvg: 90,
          utilizationMax: 95,
          memoryUsedAvg: 40,
          powerAvg: 500,
          temperatureAvg: 60,
        })),
      );
    const e = await monthlyEnergy(org.ctx, org.slug, { month: "2030-03" });
    expect(e.isEstimate).toBe(true);
    expect(e.formula).toContain("PUE");
    expect(e.instances).toHaveLength(1);
    expect(e.instances[0]?.gpuKwh).toBeCloseTo(0.5, 9);
    expect(e.totalKwh).toBeCloseTo(0.5 * 1.25, 9);
    expect(e.totalGco2).toBeCloseTo(0.5 * 1.25 * 200, 6);
    expect((await monthlyEnergy(org.ctx, org.slug, { month: "2030-04" })).instances).toEqual([]);
    const series = await energyByMonth(org.ctx, org.slug, { months: 3 });
    expect(series.months.map((m) => [m.period, m.facilityKwh, m.gco2])).toEqual([
      ["2030-01", 0, 0],
      ["2030-02", 0, 0],
      ["2030-03", 0.625, 125],
    ]);
  });

  it("quotes and sells reservations to admins only, and keeps other tenants out", async () => {
    const { org } = await explorerOrg();
    const member = await org.as("member");
    const input = { gpuModelId: cat.gpu, regionCode: cat.region, gpuCount: 2, term: "reserved_1m" as const };
    const q = await quoteReservation(member, org.slug, input);
    expect(q).toMatchObject({
      usdPerGpuHour: 1.5,
      onDemandUsdPerGpuHour: 2.5,
      hours: 31 * 24,
      savingsPct: 40,
    });
    expect(q.totalUsd).toBe(1.5 * 2 * 31 * 24);
    await expect(purchaseReservation(member, org.slug, input)).rejects.toBeInstanceOf(ForbiddenError);
    const bad = await purchaseReservation(org.ctx, org.slug, { ...input, gpuCount: 0 }).catch(
      (e: unknown) => e,
    );
    expect(Object.keys((bad as ValidationError).fieldErrors)).toEqual(["gpuCount"]);
    const { reservation } = await purchaseReservation(org.ctx, org.slug, input);
    expect(reservation).toMatchObject({ gpuCount: 2, term: "reserved_1m", orgId: org.org.id });
    expect(reservation.endsAt.toISOString()).toBe("2030-04-11T10:30:00.000Z");

    const other = await newBillingOrg(testClock("2030-03-11T10:30:00Z"), "cost2");
    await expect(monthToDate(other.ctx, org.slug)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      exportLedgerCsv(other.ctx, org.slug, { from: "2030-03-01", to: "2030-04-01" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      dailyCost(org.ctx, org.slug, { from: "2030-03-01", to: "2030-04-01", project: "nope" }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});

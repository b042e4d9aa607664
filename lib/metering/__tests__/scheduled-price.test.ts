import { describe, expect, it } from "vitest";
import { schedulePriceChange } from "@/lib/catalog";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { meterUsage } from "@/lib/metering";
import { makeUser } from "../../admin/__tests__/fixtures";
import { billingCatalog, ledgerOf, newBillingOrg, scriptedInstance, testClock } from "./fixtures";

describe("a price change an operator scheduled", () => {
  it("bills usage before it at the old price and after it at the new one, cut at its instant", async () => {
    const cat = await billingCatalog();
    // Scheduled on Jan 5 for Jan 10 at 12:00: spot $0.80 → $1.10 per hour.
    const op = { ...(await makeUser(getDb(), { isOperator: true, label: "meterop" })).ctx };
    await schedulePriceChange(
      { ...op, now: () => new Date("2030-01-05T09:00:00Z") },
      {
        instanceTypeId: cat.type1x,
        regionCode: cat.region,
        pricingModel: "spot",
        usdPerHour: 1.1,
        effectiveFrom: "2030-01-10T12:00",
      },
    );
    const org = await newBillingOrg(testClock("2030-01-11T00:00:00Z"));
    const inst = await scriptedInstance(
      org,
      cat,
      [
        ["2030-01-10T11:00:00Z", "requested"],
        ["2030-01-10T11:00:00Z", "queued"],
        ["2030-01-10T11:00:00Z", "provisioning"],
        ["2030-01-10T11:30:00Z", "running"],
        ["2030-01-10T12:30:00Z", "stopping"],
        ["2030-01-10T12:30:00Z", "stopped"],
        ["2030-01-10T12:30:00Z", "terminating"],
        ["2030-01-10T12:30:00Z", "terminated"],
      ],
      { pricing: "spot" },
    );
    await meterUsage(systemCtx("metering"), { now: new Date("2030-01-11T00:00:00Z"), orgIds: [org.org.id] });
    const compute = (await ledgerOf(org.org.id))
      .filter((r) => r.instanceId === inst.id && r.kind === "compute")
      .map((r) => [r.periodStart.toISOString(), r.seconds, Number(r.unitPrice), Number(r.amount)]);
    expect(compute).toEqual([
      ["2030-01-10T11:30:00.000Z", 1800, 0.8, 0.4],
      ["2030-01-10T12:00:00.000Z", 1800, 1.1, 0.55],
    ]);
  });
});

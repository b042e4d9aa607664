import { beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/core";
import { getPool } from "@/lib/db/client";
import { meterUsage } from "@/lib/metering";
import {
  addEvents,
  addReservation,
  type BillingCatalog,
  billingCatalog,
  ledgerOf,
  newBillingOrg,
  scriptedInstance,
  sumAmount,
  testClock,
} from "./fixtures";

let cat: BillingCatalog;
beforeAll(async () => {
  cat = await billingCatalog();
});

const worker = systemCtx("metering");
const meter = (orgId: string, now: string) => meterUsage(worker, { now: new Date(now), orgIds: [orgId] });
const start = (day: string, t: string): Array<[string, string]> => [
  [`${day}T${t}Z`, "requested"],
  [`${day}T${t}Z`, "queued"],
  [`${day}T${t}Z`, "provisioning"],
];

describe("metering a scripted month", () => {
  it("bills January to the hand-computed cent, and a second pass writes nothing", async () => {
    const org = await newBillingOrg(testClock("2030-02-01T00:05:00Z"));
    // A: on-demand, run → stop → start → stop → terminate. Compute 121 min + 60.5 min at $2; disk 21.9 h + 1.825 h.
    const a = await scriptedInstance(org, cat, [
      ...start("2030-01-02", "09:00:00"),
      ["2030-01-02T09:05:00Z", "running"],
      ["2030-01-02T11:05:00Z", "stopping"],
      ["2030-01-02T11:06:00Z", "stopped"],
      ["2030-01-03T09:00:00Z", "queued"],
      ["2030-01-03T09:00:00Z", "provisioning"],
      ["2030-01-03T09:10:00Z", "running"],
      ["2030-01-03T10:10:00Z", "stopping"],
      ["2030-01-03T10:10:30Z", "stopped"],
      ["2030-01-03T12:00:00Z", "terminating"],
      ["2030-01-03T12:01:00Z", "terminated"],
    ]);
    // B: runs across the price change at 12:20 ($2.00 → $2.50): 50 min at 2.00, 71 min at 2.50, 1 min of disk.
    const b = await scriptedInstance(org, cat, [
      ...start("2030-01-15", "11:00:00"),
      ["2030-01-15T11:30:00Z", "running"],
      ["2030-01-15T13:30:00Z", "stopping"],
      ["2030-01-15T13:31:00Z", "stopped"],
      ["2030-01-15T13:32:00Z", "terminating"],
      ["2030-01-15T13:33:00Z", "terminated"],
    ]);
    // C: spot at $0.80, preempted (the 2-minute notice bills), auto-recovered, stopped: 122 + 61 min, 4 min disk.
    const c = await scriptedInstance(
      org,
      cat,
      [
        ...start("2030-01-20", "07:50:00"),
        ["2030-01-20T08:00:00Z", "running"],
        ["2030-01-20T10:00:00Z", "preempting"],
        ["2030-01-20T10:02:00Z", "preempted"],
        ["2030-01-20T10:02:00Z", "queued"],
        ["2030-01-20T10:30:00Z", "provisioning"],
        ["2030-01-20T10:35:00Z", "running"],
        ["2030-01-20T11:35:00Z", "stopping"],
        ["2030-01-20T11:36:00Z", "stopped"],
        ["2030-01-20T11:40:00Z", "terminating"],
        ["2030-01-20T11:41:00Z", "terminated"],
      ],
      { pricing: "spot" },
    );
    // D: one reserved GPU from Jan 25 (168 h in January at $1.20). D1 (reserved) uses 14,430 s of it; D2, an
    // on-demand 2-GPU instance, one hour on Jan 26, of which the pool covers half (3,600 GPU-s of 7,200).
    const r = await addReservation(org, cat, {
      gpuCount: 1,
      term: "reserved_1y",
      startsAt: "2030-01-25T00:00:00Z",
      endsAt: "2031-01-25T00:00:00Z",
    });
    const d1 = await scriptedInstance(
      org,
      cat,
      [
        ...start("2030-01-25", "09:55:00"),
        ["2030-01-25T10:00:00Z", "running"],
        ["2030-01-25T14:00:00Z", "stopping"],
        ["2030-01-25T14:00:30Z", "stopped"],
        ["2030-01-25T14:05:00Z", "terminating"],
        ["2030-01-25T14:06:00Z", "terminated"],
      ],
      { pricing: "reserved_1y" },
    );
    const d2 = await scriptedInstance(
      org,
      cat,
      [
        ...start("2030-01-26", "09:58:00"),
        ["2030-01-26T10:00:00Z", "running"],
        ["2030-01-26T11:00:00Z", "stopping"],
        ["2030-01-26T11:00:00Z", "stopped"],
        ["2030-01-26T11:00:00Z", "terminating"],
        ["2030-01-26T11:00:00Z", "terminated"],
      ],
      { type: cat.type2x },
    );

    const first = await meter(org.org.id, "2030-02-01T00:05:00Z");
    expect(first.meteredUntil.toISOString()).toBe("2030-02-01T00:00:00.000Z");
    const rows = await ledgerOf(org.org.id);
    const of = (id: string, kind = "compute") => rows.filter((x) => x.instanceId === id && x.kind === kind);

    expect(sumAmount(of(a.id))).toBeCloseTo(4.033333 + 2.016667, 5);
    expect(sumAmount(of(a.id, "storage"))).toBeCloseTo(0.219 + 0.01825, 5);

    expect(of(b.id).map((x) => [x.periodStart.toISOString().slice(11, 16), x.seconds, x.unitPrice])).toEqual([
      ["11:30", 1800, "2.00000000"],
      ["12:00", 1200, "2.00000000"],
      ["12:20", 2400, "2.50000000"],
      ["13:00", 1860, "2.50000000"],
    ]);
    expect(sumAmount(of(b.id))).toBeCloseTo(4.625, 5);
    expect(sumAmount(of(b.id, "storage"))).toBeCloseTo(0.000167, 6);

    expect(of(c.id).every((x) => x.pricingModel === "spot" && x.unitPrice === "0.80000000")).toBe(true);
    expect(of(c.id).reduce((s, x) => s + x.seconds, 0)).toBe((122 + 61) * 60);
    expect(sumAmount(of(c.id))).toBeCloseTo(2.44, 5);

    expect(of(d1.id).every((x) => x.reservationId === r.id && x.pricingModel === "reserved_1y")).toBe(true);
    expect(sumAmount(of(d1.id))).toBeCloseTo(4.81, 5);
    const d2rows = of(d2.id).map((x) => [x.pricingModel, x.seconds, x.amount]);
    expect(d2rows).toEqual([
      ["reserved_1y", 1800, "1.200000"],
      ["on_demand", 1800, "2.500000"],
    ]);
    const commitments = rows.filter((x) => x.kind === "reservation_commitment");
    // 168 reserved hours in January, minus the 5 hours fully used (Jan 25 10–14 h, Jan 26 10 h).
    expect(commitments).toHaveLength(163);
    expect(sumAmount(commitments)).toBeCloseTo(((604_800 - 14_430 - 3_600) * 1.2) / 3600, 4);
    expect(sumAmount(commitments) + sumAmount(of(d1.id)) + 1.2).toBeCloseTo(168 * 1.2, 4);

    const hand = 6.28725 + 4.625167 + (2.44 + 0.000667) + (4.81 + 0.00075 + 3.7 + 195.59);
    expect(sumAmount(rows)).toBeCloseTo(hand, 4);
    expect(rows.every((x) => x.entry === "usage")).toBe(true);

    const again = await meter(org.org.id, "2030-02-01T00:05:00Z");
    expect(again.rows).toBe(0);
    expect(await ledgerOf(org.org.id)).toHaveLength(rows.length);
  });

  it("appends a reversal and a reissue when an event arrives late, never changing a stored row", async () => {
    const org = await newBillingOrg(testClock("2030-03-01T10:05:00Z"));
    const e = await scriptedInstance(org, cat, [
      ...start("2030-03-01", "07:55:00"),
      ["2030-03-01T08:00:00Z", "running"],
    ]);
    await meter(org.org.id, "2030-03-01T10:05:00Z");
    const before = await ledgerOf(org.org.id);
    expect(before.map((x) => [x.periodStart.toISOString().slice(11, 16), x.amount])).toEqual([
      ["08:00", "2.500000"],
      ["09:00", "2.500000"],
    ]);

    // The stop happened at 09:30 but was recorded only now (after 09:00–10:00 was billed as running).
    await addEvents(e.id, org.org.id, null, [
      ["2030-03-01T09:30:00Z", "stopping"],
      ["2030-03-01T09:31:00Z", "stopped"],
    ]);
    const second = await meter(org.org.id, "2030-03-01T10:06:00Z");
    expect(second.corrections).toBe(2);
    const after = await ledgerOf(org.org.id);
    expect(after.slice(0, 2)).toEqual(before);
    expect(after.slice(2).map((x) => [x.entry, x.kind, x.seconds, x.amount, x.correctionOf])).toEqual(
      expect.arrayContaining([
        ["reversal", "compute", -3600, "-2.500000", before[1]?.id],
        ["reissue", "compute", 1860, "1.291667", before[1]?.id],
        ["usage", "storage", 1740, "0.004833", null],
      ]),
    );
    expect(sumAmount(after)).toBeCloseTo(2.5 + (2.5 * 31) / 60 + (0.01 * 29) / 60, 5);

    const third = await meter(org.org.id, "2030-03-01T10:07:00Z");
    expect(third.rows).toBe(0);
  });

  it("lets only one of two concurrent passes write an organization's window", async () => {
    const org = await newBillingOrg(testClock("2030-04-02T00:05:00Z"));
    await scriptedInstance(org, cat, [
      ...start("2030-04-01", "00:00:00"),
      ["2030-04-01T00:00:00Z", "running"],
    ]);
    await Promise.all([meter(org.org.id, "2030-04-02T00:05:00Z"), meter(org.org.id, "2030-04-02T00:05:00Z")]);
    const rows = await ledgerOf(org.org.id);
    expect(rows).toHaveLength(24);
    expect(sumAmount(rows)).toBeCloseTo(24 * 2.5, 6);
  });
});

describe("late events committed out of id order", () => {
  // Issue 12 item 12: ids are taken at insert, not commit. A transaction holding an older id that commits
  // after a newer event was seen must still mark the organization for re-metering.
  it("re-meters an event whose older id commits after a newer one was seen", async () => {
    const org = await newBillingOrg(testClock("2030-06-01T10:05:00Z"));
    const e = await scriptedInstance(org, cat, [
      ...start("2030-06-01", "07:55:00"),
      ["2030-06-01T08:00:00Z", "running"],
    ]);
    await meter(org.org.id, "2030-06-01T10:05:00Z");
    expect(await ledgerOf(org.org.id)).toHaveLength(2);

    const slow = await getPool().connect();
    try {
      await slow.query("begin");
      // Takes its id now; commits only after the pass below has seen a higher id.
      await slow.query(
        `insert into instance_events (org_id, instance_id, from_state, to_state, reason, actor_kind, at)
         values ($1, $2, 'running', 'stopping', 'late', 'system', '2030-06-01T09:30:00Z'),
                ($1, $2, 'stopping', 'stopped', 'late', 'system', '2030-06-01T09:31:00Z')`,
        [org.org.id, e.id],
      );
      const other = await scriptedInstance(org, cat, [["2030-06-01T10:04:00Z", "requested"]]);
      expect(other.id).not.toBe(e.id);
      await meter(org.org.id, "2030-06-01T10:06:00Z");
      await slow.query("update instances set state = 'stopped' where id = $1", [e.id]);
      await slow.query("commit");
    } finally {
      slow.release();
    }
    const after = await meter(org.org.id, "2030-06-01T10:07:00Z");
    expect(after.corrections).toBe(2);
    expect(sumAmount(await ledgerOf(org.org.id))).toBeCloseTo(2.5 + (2.5 * 31) / 60 + (0.01 * 29) / 60, 5);
  });
});

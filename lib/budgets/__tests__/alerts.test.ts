import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBudget, evaluateBudgets } from "@/lib/budgets";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { budgetAlerts, notifications, outbox } from "@/lib/db/schema";
import { meterUsage } from "@/lib/metering";
import {
  type BillingCatalog,
  billingCatalog,
  newBillingOrg,
  scriptedInstance,
  testClock,
} from "@/lib/metering/__tests__/fixtures";
import { deliverOutbox, retryDelayMs } from "@/lib/notify";
import { startTestSmtp, type TestSmtp, useOwnDatabase } from "@/lib/notify/__tests__/helpers";
import { policyStop } from "@/lib/provisioning";

// Delivery reads the whole outbox, so this file works in a database of its own (see useOwnDatabase).
let smtp: TestSmtp;
let dropDb: () => Promise<void>;
let cat: BillingCatalog;
const savedSmtpUrl = process.env.SMTP_URL;

beforeAll(async () => {
  dropDb = await useOwnDatabase();
  smtp = await startTestSmtp();
  process.env.SMTP_URL = smtp.url;
  cat = await billingCatalog();
});
afterAll(async () => {
  await smtp.stop();
  await dropDb();
  if (savedSmtpUrl === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtpUrl;
});
beforeEach(() => {
  smtp.received.length = 0;
});

const worker = systemCtx("budgets");
const FINANCE = "finance@example.test";

/** An organization with a $100 budget (owner + finance mailbox) and an instance at $2.50/h since March 1st. */
async function setup(over: Record<string, unknown> = {}) {
  const clock = testClock("2030-03-01T00:00:00Z");
  const org = await newBillingOrg(clock, "alert");
  await scriptedInstance(org, cat, [
    ["2030-02-28T23:55:00Z", "requested"],
    ["2030-02-28T23:55:00Z", "queued"],
    ["2030-02-28T23:55:00Z", "provisioning"],
    ["2030-03-01T00:00:00Z", "running"],
  ]);
  const budget = await createBudget(org.ctx, org.slug, {
    name: "Research",
    amountUsd: 100,
    recipientUserIds: [org.user.id],
    recipientEmails: [FINANCE],
    ...over,
  });
  const run = async (at: string, opts: Partial<Parameters<typeof evaluateBudgets>[1]> = {}) => {
    clock.set(at);
    await meterUsage(worker, { now: clock.now(), orgIds: [org.org.id] });
    return evaluateBudgets(worker, { now: clock.now(), orgIds: [org.org.id], stop: policyStop, ...opts });
  };
  return { org, budget, clock, run };
}

/** Send everything due (the outbox stamps rows with the real clock, so deliver "later" than both). */
async function deliver(extraMs = 0) {
  return deliverOutbox({ now: new Date(Date.now() + 60_000 + extraMs), limit: 100 });
}
const subjects = (to: string) =>
  smtp.received.filter((m) => JSON.stringify(m.to).includes(to)).map((m) => m.subject ?? "");

describe("budget alerts by email", () => {
  it("sends exactly one email per threshold crossed per recipient, with amounts, forecast and a link", async () => {
    const { org, run } = await setup();
    // 20 h 05 min at $2.50 = $50.21: actual 50 % is crossed, and the burn rate forecasts far beyond 100 %.
    expect(await run("2030-03-01T20:05:00Z")).toMatchObject({ alerts: 2, emails: 4, failed: 0 });
    expect(await run("2030-03-01T20:06:00Z")).toMatchObject({ alerts: 0, emails: 0 });
    expect(await deliver()).toEqual({ sent: 4, failed: 0 });
    expect(subjects(FINANCE).sort()).toEqual([
      "Budget 'Research' at 50% — $50.21 of $100.00",
      expect.stringMatching(/^Budget 'Research' forecast at 100% — \$1,[0-9,.]+ of \$100\.00 by month end$/),
    ]);
    const mail = smtp.received.find((m) => m.subject?.includes("at 50%"));
    expect(mail?.text).toContain("Spend for the organization");
    expect(mail?.text).toContain("Forecast for the whole month:");
    expect(mail?.text).toMatch(/Top spenders this month: i-\w+ \(\$50\.00\)/);
    expect(mail?.text).toContain(`/${org.slug}/usage`);

    await run("2030-03-02T08:05:00Z"); // 32 h 05 min: $80.21
    await run("2030-03-02T16:05:00Z"); // 40 h 05 min: $100.21
    await deliver();
    expect(subjects(org.user.email).sort()).toEqual([
      "Budget 'Research' at 100% — $100.21 of $100.00",
      "Budget 'Research' at 50% — $50.21 of $100.00",
      "Budget 'Research' at 80% — $80.21 of $100.00",
      expect.stringContaining("forecast at 100%"),
    ]);
    expect(subjects(FINANCE)).toHaveLength(4);
    const notes = await getDb().select().from(notifications).where(eq(notifications.orgId, org.org.id));
    expect(notes.map((n) => `${n.kind}:${n.params.pct}`).sort()).toEqual([
      "budget.actual:100",
      "budget.actual:50",
      "budget.actual:80",
      "budget.forecast:100",
    ]);
  });

  it("alerts once when two evaluations run at the same time", async () => {
    const { org, clock } = await setup();
    clock.set("2030-03-01T20:05:00Z");
    await meterUsage(worker, { now: clock.now(), orgIds: [org.org.id] });
    const both = await Promise.all(
      [1, 2].map(() => evaluateBudgets(worker, { now: clock.now(), orgIds: [org.org.id], stop: policyStop })),
    );
    expect(both.reduce((n, r) => n + r.alerts, 0)).toBe(2);
    await deliver();
    expect(subjects(FINANCE)).toHaveLength(2);
    expect(subjects(org.user.email)).toHaveLength(2);
  });

  it("rolls back a crash after the alert insert, and the next pass sends once", async () => {
    const { org, run } = await setup();
    const crashed = await run("2030-03-01T20:05:00Z", {
      onAlertInserted: () => {
        throw new Error("worker killed between insert and enqueue");
      },
    });
    expect(crashed).toMatchObject({ alerts: 0, failed: 2 });
    expect(await getDb().$count(budgetAlerts, eq(budgetAlerts.orgId, org.org.id))).toBe(0);
    expect(await getDb().$count(outbox, eq(outbox.orgId, org.org.id))).toBe(0);

    expect(await run("2030-03-01T20:06:00Z")).toMatchObject({ alerts: 2, emails: 4, failed: 0 });
    await deliver();
    expect(subjects(FINANCE)).toHaveLength(2);
  });

  it("delivers exactly once after an SMTP outage", async () => {
    const { run } = await setup({ recipientUserIds: [] });
    await smtp.stop();
    try {
      await run("2030-03-01T20:05:00Z");
      expect(await deliver()).toMatchObject({ sent: 0 });
    } finally {
      await smtp.restart();
    }
    expect(await deliver(retryDelayMs(1))).toMatchObject({ sent: 2, failed: 0 });
    expect(await deliver(retryDelayMs(2))).toEqual({ sent: 0, failed: 0 });
    expect(subjects(FINANCE)).toHaveLength(2);
  });
});

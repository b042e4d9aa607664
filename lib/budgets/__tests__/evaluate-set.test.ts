import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { scopedSpend } from "@/lib/budgets/evaluate";
import { getDb } from "@/lib/db/client";
import { budgets, meteringCursors, projects, usageRecords } from "@/lib/db/schema";
import { forecastOf, monthOf, type ProjectSpendRow, projectSpend } from "@/lib/metering";
import { type BillingCatalog, billingCatalog } from "@/lib/metering/__tests__/fixtures";
import { newOrg } from "@/test/factories";

/**
 * The budget pass reads every budgeted organization's spend in one set of aggregate statements (the ledger's
 * groups filtered to budgeted organizations, split by window) and picks each budget's rows in memory. On a
 * random ledger that must give every budget (organization-wide and per project) what a reading of that
 * organization alone gives, and what the ledger's rows add up to: a row counted under the wrong organization,
 * project or window changes some budget's figure.
 */

// A small seeded generator, so a failure can be replayed.
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

type Org = { id: string; projects: (string | null)[] };
type Row = { orgId: string; projectId: string | null; start: Date; amount: number };

let cat: BillingCatalog;
const orgs: Org[] = [];
const rows: Row[] = [];
// The window of the ledger written: the previous month's last days to well into this one.
const FROM = new Date("2031-02-22T00:00:00Z");
const UNTIL = new Date("2031-03-25T00:00:00Z");
const METERED_UNTIL = new Date("2031-03-24T00:00:00Z");

beforeAll(async () => {
  cat = await billingCatalog();
  const db = getDb();
  const rnd = prng(13);
  for (let i = 0; i < 4; i++) {
    const o = await newOrg(`bset${i}`);
    const ps = await db
      .insert(projects)
      .values([0, 1, 2].map((p) => ({ orgId: o.org.id, slug: `set-${p}`, name: `Set ${p}` })))
      .returning({ id: projects.id });
    // Null: organization-level rows (reservation commitments).
    orgs.push({ id: o.org.id, projects: [o.project.id, ...ps.map((p) => p.id), null] });
    // The last organization has no cursor (its trend runs to now) and no budget (the pass must leave it out).
    if (i === 3) continue;
    await db
      .insert(meteringCursors)
      .values({ orgId: o.org.id, meteredUntil: METERED_UNTIL, updatedAt: UNTIL });
    await db.insert(budgets).values(
      [null, o.project.id, ...ps.map((p) => p.id)].map((projectId, n) => ({
        orgId: o.org.id,
        projectId,
        name: `Set budget ${n}`,
        amountUsd: "1000",
        createdAt: UNTIL,
        updatedAt: UNTIL,
      })),
    );
  }
  const hours = (UNTIL.getTime() - FROM.getTime()) / 3_600_000;
  for (let k = 0; k < 600; k++) {
    // Organizations start using at different hours, so each one's trend denominator differs.
    const org = orgs[Math.floor(rnd() * orgs.length)] as Org;
    const first = orgs.indexOf(org) * 150;
    const h = first + Math.floor(rnd() * (hours - first));
    const projectId = org.projects[Math.floor(rnd() * org.projects.length)] ?? null;
    const amount = Math.round(rnd() * 5_000_000) / 1_000_000;
    rows.push({ orgId: org.id, projectId, start: new Date(FROM.getTime() + h * 3_600_000), amount });
  }
  await db.insert(usageRecords).values(
    rows.map((r) => ({
      orgId: r.orgId,
      projectId: r.projectId,
      instanceId: r.projectId ? randomUUID() : null,
      kind: r.projectId ? ("compute" as const) : ("reservation_commitment" as const),
      regionCode: cat.region,
      periodStart: r.start,
      periodEnd: new Date(r.start.getTime() + 3_600_000),
      seconds: 3600,
      quantity: "1",
      unit: "instance-hour",
      unitPrice: r.amount.toFixed(6),
      amount: r.amount.toFixed(6),
      createdAt: UNTIL,
    })),
  );
});

/** What the ledger's rows say for one organization × project, summed here row by row. */
function expected(now: Date, orgId: string, projectId: string | null) {
  const month = monthOf(now);
  const trendFrom = new Date(now.getTime() - 7 * 86_400_000);
  const since = trendFrom < month.start ? trendFrom : month.start;
  const inWindow = rows.filter((r) => r.orgId === orgId && r.start >= since && r.start < now);
  const mine = inWindow.filter((r) => r.projectId === projectId);
  const sum = (xs: Row[]) => xs.reduce((a, r) => a + r.amount, 0);
  const first = Math.max(trendFrom.getTime(), Math.min(...inWindow.map((r) => r.start.getTime())));
  const end = orgs.findIndex((o) => o.id === orgId) < 3 ? METERED_UNTIL : now;
  return {
    ledgerMtd: sum(mine.filter((r) => r.start >= month.start)),
    trendUsd: sum(mine.filter((r) => r.start >= trendFrom)),
    trendHours: Math.max(1, (end.getTime() - first) / 3_600_000),
  };
}

const key = (r: Pick<ProjectSpendRow, "orgId" | "projectId">) => `${r.orgId}|${r.projectId ?? ""}`;

describe("set-based budget spend", () => {
  // Day 3: the 7-day trend reaches into the previous month; day 23: it lies inside this one.
  for (const at of ["2031-03-03T09:30:00Z", "2031-03-23T18:00:00Z"]) {
    it(`gives every budget what its own ledger rows and a reading of its organization give (now ${at})`, async () => {
      const now = new Date(at);
      const month = monthOf(now);
      const opts = { now, monthStart: month.start };
      const ids = orgs.map((o) => o.id);
      const budgetedIds = ids.slice(0, 3);
      // The budget pass's reading (every budgeted organization), a listed one, and each organization alone.
      const budgeted = (await projectSpend(getDb(), { budgeted: true }, opts)).filter((r) =>
        ids.includes(r.orgId),
      );
      const listed = await projectSpend(getDb(), { orgIds: ids }, opts);
      const alone = (await Promise.all(ids.map((orgId) => projectSpend(getDb(), { orgId }, opts)))).flat();
      const used = budgetedIds.filter((id) =>
        orgs
          .find((o) => o.id === id)
          ?.projects.some((p) => {
            const e = expected(now, id, p);
            return e.trendUsd > 0 || e.ledgerMtd > 0;
          }),
      );
      expect(new Set(budgeted.map((r) => r.orgId))).toEqual(new Set(used));
      const readings = [budgeted, listed, alone].map((list) => new Map(list.map((r) => [key(r), r])));
      let compared = 0;
      for (const o of orgs)
        for (const p of o.projects) {
          const want = expected(now, o.id, p);
          if (want.trendUsd === 0 && want.ledgerMtd === 0) continue;
          for (const [n, reading] of readings.entries()) {
            if (n === 0 && !budgetedIds.includes(o.id)) continue;
            const got = reading.get(key({ orgId: o.id, projectId: p }));
            expect(got, `reading ${n}: ${o.id} ${p}`).toBeDefined();
            expect(got?.ledgerMtd).toBeCloseTo(want.ledgerMtd, 6);
            expect(got?.trendUsd).toBeCloseTo(want.trendUsd, 6);
            expect(got?.trendHours).toBeCloseTo(want.trendHours, 6);
            compared++;
          }
        }
      expect(compared).toBeGreaterThanOrEqual(20);
      // Every budget's actual and forecast, organization-wide and per project, is the same from each reading.
      for (const o of orgs.slice(0, 3))
        for (const projectId of [null, ...o.projects.filter((p) => p !== null)]) {
          const b = { orgId: o.id, projectId };
          const fromOrg = forecastOf(scopedSpend(alone, b), month, now);
          expect(fromOrg.actualUsd).toBeCloseTo(
            projectId === null
              ? o.projects.reduce((a, p) => a + expected(now, o.id, p).ledgerMtd, 0)
              : expected(now, o.id, projectId).ledgerMtd,
            1,
          );
          expect(forecastOf(scopedSpend(budgeted, b), month, now)).toEqual(fromOrg);
          expect(forecastOf(scopedSpend(listed, b), month, now)).toEqual(fromOrg);
        }
    });
  }
});

import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { type Ctx, nowOf, type PolicyStop } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { budgetAlerts, budgets } from "@/lib/db/schema";
import { type Forecast, forecastOf, monthOf, type ProjectSpendRow, projectSpend } from "@/lib/metering";
import { type AlertHook, fireBudgetAlert, type Threshold } from "./alert";
import type { Budget } from "./crud";
import { stopOverBudget } from "./enforce";

export type EvaluateBudgetsResult = {
  budgets: number;
  alerts: number;
  emails: number;
  stopped: number;
  failed: number;
};

/** A budget's thresholds; a budget with an action at 100 % always watches actual 100 %, which triggers it. */
export function effectiveThresholds(b: Pick<Budget, "thresholds" | "actionAt100">): Threshold[] {
  const list = [...b.thresholds];
  if (b.actionAt100 !== "notify" && !list.some((t) => t.kind === "actual" && t.pct === 100)) {
    list.push({ kind: "actual", pct: 100 });
  }
  return list.sort((a, b2) => a.pct - b2.pct || a.kind.localeCompare(b2.kind));
}

export function scopedSpend(
  rows: ProjectSpendRow[],
  b: Pick<Budget, "orgId" | "projectId">,
): ProjectSpendRow[] {
  return rows.filter((r) => r.orgId === b.orgId && (b.projectId === null || r.projectId === b.projectId));
}

/**
 * The budget pass the worker runs every 30 s. Spend for every budgeted organization comes from three
 * aggregate queries (ledger, unmetered tail, current burn); each budget's actual and forecast are compared
 * with its thresholds in memory; each crossing not yet recorded this month is fired in its own transaction
 * (exactly once, see fireBudgetAlert), and stop_instances budgets past their grace period stop what runs
 * through opts.stop (lib/provisioning's policyStop, wired by the worker: see PolicyStop).
 */
export async function evaluateBudgets(
  ctx: Ctx,
  opts: { now?: Date; orgIds?: string[]; onAlertInserted?: AlertHook; stop: PolicyStop },
): Promise<EvaluateBudgetsResult> {
  const now = opts.now ?? nowOf(ctx);
  const month = monthOf(now);
  const exec = readDb(ctx);
  const result: EvaluateBudgetsResult = { budgets: 0, alerts: 0, emails: 0, stopped: 0, failed: 0 };
  const scope = opts.orgIds ? { orgIds: opts.orgIds } : { budgeted: true as const };
  // The budgets, their spend and this month's recorded crossings are independent reads: issued together.
  const [list, spend, done] = await Promise.all([
    exec
      .select()
      .from(budgets)
      .where(opts.orgIds ? inArray(budgets.orgId, opts.orgIds) : undefined),
    projectSpend(exec, scope, { now, monthStart: month.start }),
    exec
      .select({
        budgetId: budgetAlerts.budgetId,
        kind: budgetAlerts.kind,
        pct: budgetAlerts.pct,
        amount: budgetAlerts.budgetUsd,
        at: budgetAlerts.createdAt,
      })
      .from(budgetAlerts)
      .where(
        and(
          eq(budgetAlerts.period, month.period),
          opts.orgIds ? inArray(budgetAlerts.orgId, opts.orgIds) : undefined,
        ),
      ),
  ]);
  if (list.length === 0) return result;
  const byOrg = new Map<string, ProjectSpendRow[]>();
  for (const r of spend) {
    const rows = byOrg.get(r.orgId);
    if (rows) rows.push(r);
    else byOrg.set(r.orgId, [r]);
  }
  // Keyed by the amount too: crossings of an amount the budget no longer has do not count (see budgetAlerts).
  const alerted = new Map(done.map((a) => [`${a.budgetId}:${a.kind}:${a.pct}:${Number(a.amount)}`, a.at]));

  const capped: Array<{ budget: Budget; forecast: Forecast; since: Date }> = [];
  for (const b of list) {
    result.budgets++;
    const f = forecastOf(scopedSpend(byOrg.get(b.orgId) ?? [], b), month, now);
    const amount = Number(b.amountUsd);
    for (const t of effectiveThresholds(b)) {
      const key = `${b.id}:${t.kind}:${t.pct}:${amount}`;
      const value = t.kind === "actual" ? f.actualUsd : f.forecastUsd;
      if (value < (amount * t.pct) / 100 || alerted.has(key)) continue;
      try {
        const emails = await fireBudgetAlert(ctx, {
          budget: b,
          threshold: t,
          forecast: f,
          month,
          now,
          hook: opts.onAlertInserted,
        });
        if (emails !== null) {
          result.alerts++;
          result.emails += emails;
          alerted.set(key, now);
        }
      } catch (err) {
        result.failed++;
        console.error(`[budgets] alert ${key} ${month.period} failed; the next pass retries`, err);
      }
    }
    const since = alerted.get(`${b.id}:actual:100:${amount}`);
    if (b.actionAt100 === "stop_instances" && since && f.actualUsd >= amount) {
      capped.push({ budget: b, forecast: f, since });
    }
  }
  for (const c of capped) {
    if (c.since.getTime() + c.budget.graceMinutes * 60_000 > now.getTime()) continue;
    try {
      result.stopped += await stopOverBudget(ctx, { ...c, month, now, stop: opts.stop });
    } catch (err) {
      result.failed++;
      console.error(`[budgets] stopping instances of budget ${c.budget.id} failed`, err);
    }
  }
  return result;
}

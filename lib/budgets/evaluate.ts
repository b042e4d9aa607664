import "server-only";
import { inArray } from "drizzle-orm";
import { type Ctx, nowOf, type PolicyStop } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { budgets } from "@/lib/db/schema";
import { type Forecast, forecastOf, monthOf, type ProjectSpendRow } from "@/lib/metering";
import { type AlertHook, fireBudgetAlert, type Threshold } from "./alert";
import { budgetHits } from "./crossings";
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

/** The spend rows a budget counts: its organization's, its project's, or its service's replicas'. */
export function scopedSpend(
  rows: ProjectSpendRow[],
  b: Pick<Budget, "orgId" | "projectId"> & { serviceId?: string | null },
): ProjectSpendRow[] {
  return rows.filter(
    (r) =>
      r.orgId === b.orgId &&
      (b.projectId === null || r.projectId === b.projectId) &&
      (b.serviceId == null || r.serviceId === b.serviceId),
  );
}

/**
 * The budget pass the worker runs every 30 s. One statement compares every budget's spend (ledger, unmetered
 * tail, current burn) with its thresholds and this month's alert rows, and returns only the budgets with
 * something to do (budgetHits); each crossing is fired in its own transaction (exactly once, see
 * fireBudgetAlert), and stop_instances budgets past their grace period stop what runs through opts.stop
 * (lib/provisioning's policyStop, wired by the worker: see PolicyStop).
 */
export async function evaluateBudgets(
  ctx: Ctx,
  opts: { now?: Date; orgIds?: string[]; onAlertInserted?: AlertHook; stop: PolicyStop },
): Promise<EvaluateBudgetsResult> {
  const now = opts.now ?? nowOf(ctx);
  const month = monthOf(now);
  const exec = readDb(ctx);
  const found = await budgetHits(exec, { orgIds: opts.orgIds, month, now });
  const result: EvaluateBudgetsResult = {
    budgets: found.budgets,
    alerts: 0,
    emails: 0,
    stopped: 0,
    failed: 0,
  };
  if (found.hits.length === 0) return result;
  // Only the few budgets that crossed something are read whole (names, recipients, grace).
  const list = await exec
    .select()
    .from(budgets)
    .where(
      inArray(
        budgets.id,
        found.hits.map((h) => h.budgetId),
      ),
    );
  const byId = new Map(list.map((b) => [b.id, b]));

  const capped: Array<{ budget: Budget; forecast: Forecast; since: Date }> = [];
  for (const hit of found.hits) {
    const b = byId.get(hit.budgetId);
    if (!b) continue; // deleted since the statement read it
    const f = forecastOf([hit.spend], month, now);
    let since = hit.cappedSince;
    for (const t of hit.crossed) {
      const key = `${b.id}:${t.kind}:${t.pct}:${Number(b.amountUsd)}`;
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
          if (t.kind === "actual" && t.pct === 100) since = now;
        }
      } catch (err) {
        result.failed++;
        console.error(`[budgets] alert ${key} ${month.period} failed; the next pass retries`, err);
      }
    }
    if (hit.capped && since) capped.push({ budget: b, forecast: f, since });
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

import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { type Ctx, nowOf } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { budgetAlerts, budgets, projects, services } from "@/lib/db/schema";
import { type Forecast, forecastOf, monthOf, projectSpend } from "@/lib/metering";
import type { Budget } from "./crud";
import { effectiveThresholds, scopedSpend } from "./evaluate";

export type BudgetStatus = "ok" | "warning" | "exceeded";

export type BudgetWithStatus = Budget & {
  projectName: string | null;
  /** The inference service a service-scoped budget counts (null for the others). */
  serviceName: string | null;
  forecast: Forecast;
  /** Actual as a share of the amount, in percent (one decimal). */
  usedPct: number;
  forecastPct: number;
  /** exceeded: actual ≥ 100 %; warning: a threshold crossed or forecast ≥ 100 %; else ok. */
  status: BudgetStatus;
  /** Launches in the budget's scope are refused right now. */
  blocksLaunches: boolean;
  alertsThisPeriod: Array<{ kind: "actual" | "forecast"; pct: number; at: Date }>;
};

const pct = (n: number, of: number) => Math.round((n / of) * 1000) / 10;

/** Every budget of the organization with this month's actual, forecast and alerts (any role may read). */
export async function listBudgets(ctx: Ctx, orgSlug: string): Promise<BudgetWithStatus[]> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const exec = readDb(ctx);
  const now = nowOf(ctx);
  const month = monthOf(now);
  const list = await exec
    .select({ budget: budgets, projectName: projects.name, serviceName: services.name })
    .from(budgets)
    .leftJoin(projects, eq(projects.id, budgets.projectId))
    .leftJoin(services, eq(services.id, budgets.serviceId))
    .where(eq(budgets.orgId, org.id));
  if (list.length === 0) return [];
  const [rows, alerts] = await Promise.all([
    projectSpend(exec, { orgId: org.id }, { now, monthStart: month.start }),
    exec
      .select()
      .from(budgetAlerts)
      .where(and(eq(budgetAlerts.orgId, org.id), eq(budgetAlerts.period, month.period)))
      .orderBy(desc(budgetAlerts.createdAt)),
  ]);
  return list
    .map(({ budget: b, projectName, serviceName }) => {
      const f = forecastOf(scopedSpend(rows, b), month, now);
      const amount = Number(b.amountUsd);
      const mine = alerts.filter((a) => a.budgetId === b.id);
      const exceeded = f.actualUsd >= amount;
      const warned = mine.length > 0 || f.forecastUsd >= amount;
      return {
        ...b,
        projectName,
        serviceName,
        forecast: f,
        usedPct: pct(f.actualUsd, amount),
        forecastPct: pct(f.forecastUsd, amount),
        status: (exceeded ? "exceeded" : warned ? "warning" : "ok") as BudgetStatus,
        blocksLaunches: exceeded && b.actionAt100 !== "notify",
        alertsThisPeriod: mine.map((a) => ({ kind: a.kind, pct: a.pct, at: a.createdAt })),
        thresholds: effectiveThresholds(b),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export type BudgetAlertRow = typeof budgetAlerts.$inferSelect;

/** The alert history of one budget or the whole organization, newest first. */
export async function listBudgetAlerts(
  ctx: Ctx,
  orgSlug: string,
  opts: { budgetId?: string; limit?: number } = {},
): Promise<BudgetAlertRow[]> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  return readDb(ctx)
    .select()
    .from(budgetAlerts)
    .where(
      and(
        eq(budgetAlerts.orgId, org.id),
        opts.budgetId && /^[0-9a-f-]{36}$/i.test(opts.budgetId)
          ? eq(budgetAlerts.budgetId, opts.budgetId)
          : undefined,
      ),
    )
    .orderBy(desc(budgetAlerts.createdAt), desc(budgetAlerts.id))
    .limit(Math.min(opts.limit ?? 100, 500));
}

import { z } from "zod";
import type { Budget } from "./crud";
import type { BudgetAlertRow, BudgetWithStatus } from "./queries";
import { BUDGET_ACTIONS } from "./schemas";

const iso = z.string().meta({ format: "date-time" });
const thresholdView = z.object({ kind: z.enum(["actual", "forecast"]), pct: z.int() });

/** A budget as the API returns it (money as numbers, times as ISO text); its ETag is computed from this. */
export const budgetViewSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    projectId: z.uuid().nullable(),
    serviceId: z.uuid().nullable().meta({
      description: "Set when the budget counts one inference service's replicas (projectId is its project)",
    }),
    amountUsd: z.number(),
    currency: z.string(),
    thresholds: z.array(thresholdView),
    recipientUserIds: z.array(z.uuid()),
    recipientEmails: z.array(z.string()),
    actionAt100: z.enum(BUDGET_ACTIONS),
    graceMinutes: z.int(),
    createdAt: iso,
    updatedAt: iso,
  })
  .meta({ id: "Budget" });
export type BudgetView = z.output<typeof budgetViewSchema>;

export function budgetView(b: Budget): BudgetView {
  return {
    id: b.id,
    name: b.name,
    projectId: b.projectId,
    serviceId: b.serviceId,
    amountUsd: Number(b.amountUsd),
    currency: b.currency,
    thresholds: b.thresholds,
    recipientUserIds: b.recipientUserIds,
    recipientEmails: b.recipientEmails,
    actionAt100: b.actionAt100,
    graceMinutes: b.graceMinutes,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}

export const budgetAlertViewSchema = z
  .object({
    id: z.int(),
    budgetId: z.uuid(),
    period: z.string().meta({ example: "2030-05" }),
    kind: z.enum(["actual", "forecast"]),
    pct: z.int(),
    budgetUsd: z.number(),
    actualUsd: z.number(),
    forecastUsd: z.number(),
    createdAt: iso,
  })
  .meta({ id: "BudgetAlert" });

export function budgetAlertView(a: BudgetAlertRow): z.output<typeof budgetAlertViewSchema> {
  return {
    id: a.id,
    budgetId: a.budgetId,
    period: a.period,
    kind: a.kind,
    pct: a.pct,
    budgetUsd: Number(a.budgetUsd),
    actualUsd: Number(a.actualUsd),
    forecastUsd: Number(a.forecastUsd),
    createdAt: a.createdAt.toISOString(),
  };
}

/** A budget with this month's standing, for the list. */
export const budgetStatusViewSchema = budgetViewSchema
  .extend({
    projectName: z.string().nullable(),
    serviceName: z.string().nullable(),
    actualUsd: z.number(),
    forecastUsd: z.number(),
    usedPct: z.number(),
    forecastPct: z.number(),
    status: z.enum(["ok", "warning", "exceeded"]),
    blocksLaunches: z.boolean(),
  })
  .meta({ id: "BudgetWithStatus" });

export function budgetStatusView(b: BudgetWithStatus): z.output<typeof budgetStatusViewSchema> {
  return {
    ...budgetView(b),
    projectName: b.projectName,
    serviceName: b.serviceName,
    actualUsd: b.forecast.actualUsd,
    forecastUsd: b.forecast.forecastUsd,
    usedPct: b.usedPct,
    forecastPct: b.forecastPct,
    status: b.status,
    blocksLaunches: b.blocksLaunches,
  };
}

import "server-only";
import { and, eq, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { BudgetBlockedError } from "@/lib/core";
import type { Executor } from "@/lib/db/client";
import { budgets } from "@/lib/db/schema";
import { forecastOf, monthOf, projectSpend } from "@/lib/metering";
import { scopedSpend } from "./evaluate";

/** The actions at 100 % that refuse new launches. */
const CAPPING = ["block_launches", "stop_instances"] as const;

/**
 * Whether a budget that can block launches covers the project, as a boolean subquery: launch reads it with
 * its other facts and calls assertBudgetAllowsLaunch (which computes spend) only when one does. A service's
 * budget is not among them: it caps that service's replicas only (assertServiceBudgetAllowsReplica).
 */
export function launchCapExistsSql(orgId: string | SQL, projectId: SQL): SQL {
  return sql`exists (select 1 from budgets b where b.org_id = ${orgId}
    and b.action_at_100 in ${sql.raw(`('${CAPPING.join("','")}')`)}
    and b.service_id is null and (b.project_id is null or b.project_id = ${projectId}))`;
}

/**
 * For launch (in its transaction): refuse when a budget covering the project (or the whole organization)
 * with block_launches or stop_instances at 100 % is used up this month (BudgetBlocked, naming the budget).
 * Spend is computed live (ledger plus the unmetered tail), so raising the budget unblocks at once and a
 * crossing is enforced before its alert. Services' budgets are left to assertServiceBudgetAllowsReplica.
 */
export async function assertBudgetAllowsLaunch(
  exec: Executor,
  orgId: string,
  projectId: string,
  now: Date,
): Promise<void> {
  const capped = await exec
    .select()
    .from(budgets)
    .where(
      and(
        eq(budgets.orgId, orgId),
        inArray(budgets.actionAt100, [...CAPPING]),
        isNull(budgets.serviceId),
        or(isNull(budgets.projectId), eq(budgets.projectId, projectId)),
      ),
    );
  await assertUnderBudgets(exec, orgId, capped, now, "new launches are blocked");
}

/**
 * For the autoscaler, before it launches a replica of a service (launch itself then checks the project's
 * and the organization's budgets): refuse when a budget scoped to this service that blocks launches is used
 * up this month. Nothing else is refused by such a budget.
 */
export async function assertServiceBudgetAllowsReplica(
  exec: Executor,
  orgId: string,
  serviceId: string,
  now: Date,
): Promise<void> {
  const capped = await exec
    .select()
    .from(budgets)
    .where(
      and(
        eq(budgets.orgId, orgId),
        inArray(budgets.actionAt100, [...CAPPING]),
        eq(budgets.serviceId, serviceId),
      ),
    );
  await assertUnderBudgets(exec, orgId, capped, now, "new replicas of this service are blocked");
}

async function assertUnderBudgets(
  exec: Executor,
  orgId: string,
  capped: Array<typeof budgets.$inferSelect>,
  now: Date,
  blocked: string,
): Promise<void> {
  if (capped.length === 0) return;
  const month = monthOf(now);
  const rows = await projectSpend(exec, { orgId }, { now, monthStart: month.start });
  for (const b of capped) {
    const f = forecastOf(scopedSpend(rows, b), month, now);
    const amount = Number(b.amountUsd);
    if (f.actualUsd < amount) continue;
    const usd = (n: number) =>
      `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    throw new BudgetBlockedError(
      `The budget '${b.name}' is used up for ${month.period} (${usd(f.actualUsd)} of ${usd(amount)}): ${blocked} ` +
        "until an admin raises the budget or the month ends.",
      { budgetId: b.id, budgetName: b.name, period: month.period, actualUsd: f.actualUsd, amountUsd: amount },
    );
  }
}

import "server-only";
import { eq, sql } from "drizzle-orm";
import { POLICY_ACTOR } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, checkpoint } from "@/lib/core";
import { type Tx, withTx } from "@/lib/db/client";
import { budgetAlerts, organizations, projects } from "@/lib/db/schema";
import type { Forecast, Month } from "@/lib/metering";
import { costTexts, createNotification, enqueueEmail } from "@/lib/notify";
import type { Budget } from "./crud";
import { type BudgetAlertFacts, budgetAlertEmail, budgetScope, budgetSubject, usageLink } from "./email";
import { budgetRecipients } from "./recipients";

export type BudgetAlert = typeof budgetAlerts.$inferSelect;
export type Threshold = { kind: "actual" | "forecast"; pct: number };

/** Called inside the alert's transaction right after the alert row is written (tests simulate a crash here). */
export type AlertHook = (alert: BudgetAlert) => void | Promise<void>;

async function topSpenders(tx: Tx, budget: Budget, month: Month) {
  const res = await tx.execute<{ name: string; amount: string }>(sql`
    select i.name, sum(u.amount) as amount
    from usage_records u join instances i on i.id = u.instance_id
    where u.org_id = ${budget.orgId} and u.period_start >= ${month.start} and u.period_start < ${month.end}
      ${budget.projectId ? sql`and u.project_id = ${budget.projectId}` : sql``}
    group by i.id, i.name
    having sum(u.amount) > 0
    order by sum(u.amount) desc, i.id
    limit 3`);
  return res.rows.map((r) => ({ name: r.name, amountUsd: Number(r.amount) }));
}

/**
 * Record that a budget crossed a threshold this month and, only if this transaction is the one that wrote the
 * row, enqueue the emails and the console notification in the same transaction. The unique key
 * (budget, period, kind, pct) makes the crossing exist once: a concurrent evaluator's insert waits and then
 * does nothing, and a crash before commit leaves neither the row nor the emails, so the next pass sends them.
 * Returns the number of emails enqueued, or null when the alert already existed.
 */
export async function fireBudgetAlert(
  ctx: Ctx,
  input: {
    budget: Budget;
    threshold: Threshold;
    forecast: Forecast;
    month: Month;
    now: Date;
    hook?: AlertHook;
  },
): Promise<number | null> {
  const { budget, threshold, forecast, month, now } = input;
  return withTx(ctx.tx, async (tx) => {
    const [alert] = await tx
      .insert(budgetAlerts)
      .values({
        budgetId: budget.id,
        orgId: budget.orgId,
        period: month.period,
        kind: threshold.kind,
        pct: threshold.pct,
        budgetUsd: budget.amountUsd,
        actualUsd: forecast.actualUsd.toFixed(2),
        forecastUsd: forecast.forecastUsd.toFixed(2),
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!alert) return null;
    await input.hook?.(alert);

    const [org] = await tx.select().from(organizations).where(eq(organizations.id, budget.orgId));
    const [project] = budget.projectId
      ? await tx.select().from(projects).where(eq(projects.id, budget.projectId))
      : [];
    const facts: BudgetAlertFacts = {
      budgetName: budget.name,
      orgName: org?.name ?? "",
      orgSlug: org?.slug ?? "",
      projectName: project?.name ?? null,
      period: month.period,
      kind: threshold.kind,
      pct: threshold.pct,
      amountUsd: Number(budget.amountUsd),
      actualUsd: forecast.actualUsd,
      forecastUsd: forecast.forecastUsd,
      actionAt100: budget.actionAt100,
      stopAt:
        budget.actionAt100 === "stop_instances"
          ? new Date(now.getTime() + budget.graceMinutes * 60_000)
          : null,
      topSpenders: await topSpenders(tx, budget, month),
      recipientsFallback: false,
    };
    const { recipients, fallback } = await budgetRecipients(tx, budget);
    facts.recipientsFallback = fallback;
    const key = `budget:${budget.id}:${month.period}:${threshold.kind}:${threshold.pct}:${Number(budget.amountUsd)}`;
    let emails = 0;
    for (const r of recipients) {
      const msg = budgetAlertEmail(costTexts(r.locale), facts);
      const id = await enqueueEmail(tx, {
        to: r.email,
        ...msg,
        orgId: budget.orgId,
        dedupeKey: `${key}:${r.email}`,
      });
      if (id) emails++;
    }
    // Killed here, the alert row and its emails are rolled back together: the next pass fires it once.
    await checkpoint("budgets.alert.enqueued");
    const en = costTexts(null);
    const scope = budgetScope(en, facts);
    await createNotification(tx, {
      orgId: budget.orgId,
      kind: threshold.kind === "actual" ? "budget.actual" : "budget.forecast",
      severity: threshold.pct >= 100 ? "critical" : threshold.pct >= 80 ? "warning" : "info",
      title: budgetSubject(en, facts),
      body: [
        en.t("budgetSpent", {
          scope,
          period: month.period,
          spent: en.usd(facts.actualUsd),
          amount: en.usd(facts.amountUsd),
          actualPct: Math.floor((facts.actualUsd / facts.amountUsd) * 100),
        }),
        ...(fallback ? [en.t("budgetRecipientsFallback")] : []),
      ].join(" "),
      params: {
        budgetId: budget.id,
        name: budget.name,
        pct: threshold.pct,
        spent: facts.actualUsd,
        forecast: facts.forecastUsd,
        amount: facts.amountUsd,
        period: month.period,
        scope: facts.projectName ?? "",
        ...(fallback ? { recipientsFallback: 1 } : {}),
      },
      link: usageLink(facts.orgSlug),
      dedupeKey: key,
      at: now,
    });
    await writeAudit(tx, POLICY_ACTOR, {
      orgId: budget.orgId,
      action: "budget.threshold_crossed",
      targetType: "budget",
      targetId: budget.id,
      data: {
        name: budget.name,
        period: month.period,
        kind: threshold.kind,
        pct: threshold.pct,
        actualUsd: facts.actualUsd,
        forecastUsd: facts.forecastUsd,
        recipients: recipients.length,
        recipientsFallback: fallback,
      },
      at: now,
    });
    return emails;
  });
}

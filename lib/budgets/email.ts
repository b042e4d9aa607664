import type { CostTexts } from "@/lib/notify";
import { publicBaseUrl, renderEmail } from "@/lib/notify";

export type BudgetAlertFacts = {
  budgetName: string;
  orgName: string;
  orgSlug: string;
  projectName: string | null;
  period: string;
  kind: "actual" | "forecast";
  pct: number;
  amountUsd: number;
  actualUsd: number;
  forecastUsd: number;
  actionAt100: "notify" | "block_launches" | "stop_instances";
  /** stop_instances: when running instances will be stopped. */
  stopAt: Date | null;
  topSpenders: Array<{ name: string; amountUsd: number }>;
  /** Sent to the admins and owners because every chosen recipient has left the organization. */
  recipientsFallback: boolean;
};

export function budgetScope(tx: CostTexts, f: Pick<BudgetAlertFacts, "orgName" | "projectName">): string {
  return f.projectName
    ? tx.t("scopeProject", { project: f.projectName, org: f.orgName })
    : tx.t("scopeOrg", { org: f.orgName });
}

export function budgetSubject(tx: CostTexts, f: BudgetAlertFacts): string {
  return f.kind === "actual"
    ? tx.t("budgetActualSubject", {
        name: f.budgetName,
        pct: f.pct,
        spent: tx.usd(f.actualUsd),
        amount: tx.usd(f.amountUsd),
      })
    : tx.t("budgetForecastSubject", {
        name: f.budgetName,
        pct: f.pct,
        forecast: tx.usd(f.forecastUsd),
        amount: tx.usd(f.amountUsd),
      });
}

export function usageLink(orgSlug: string): string {
  return `/${encodeURIComponent(orgSlug)}/usage`;
}

/** The alert email for one recipient, in their language: amounts, threshold, forecast, top spenders, link. */
export function budgetAlertEmail(
  tx: CostTexts,
  f: BudgetAlertFacts,
): { subject: string; text: string; html: string } {
  const scope = budgetScope(tx, f);
  const pctOf = (n: number) => Math.floor((n / f.amountUsd) * 100);
  const paragraphs = [
    tx.t("budgetSpent", {
      scope,
      period: f.period,
      spent: tx.usd(f.actualUsd),
      amount: tx.usd(f.amountUsd),
      actualPct: pctOf(f.actualUsd),
    }),
    tx.t("budgetForecast", { forecast: tx.usd(f.forecastUsd), forecastPct: pctOf(f.forecastUsd) }),
  ];
  if (f.topSpenders.length > 0) {
    paragraphs.push(
      tx.t("budgetTop", { list: f.topSpenders.map((s) => `${s.name} (${tx.usd(s.amountUsd)})`).join(", ") }),
    );
  }
  const atCap = f.kind === "actual" && f.pct >= 100;
  if (atCap && f.actionAt100 === "block_launches") paragraphs.push(tx.t("budgetBlocked", { scope }));
  if (atCap && f.actionAt100 === "stop_instances") {
    paragraphs.push(tx.t("budgetBlocked", { scope }));
    if (f.stopAt) paragraphs.push(tx.t("budgetWillStop", { scope, time: tx.time(f.stopAt) }));
  }
  if (f.recipientsFallback) paragraphs.push(tx.t("budgetRecipientsFallback"));
  const subject = budgetSubject(tx, f);
  const body = renderEmail({
    title: subject,
    paragraphs,
    action: { label: tx.t("budgetOpen"), url: `${publicBaseUrl()}${usageLink(f.orgSlug)}` },
    footer: tx.t("budgetFooter", { name: f.budgetName }),
  });
  return { subject, ...body };
}

import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getTranslations } from "next-intl/server";
import { BudgetAlertHistory } from "@/components/costs/budget-alert-history";
import { BudgetChart } from "@/components/costs/budget-chart";
import { budgetSeries } from "@/components/costs/budget-series";
import { BudgetStatusBadge } from "@/components/costs/budget-status";
import { DeleteBudget } from "@/components/costs/delete-budget";
import { roleAtLeast } from "@/lib/access";
import { listBudgetAlerts, listBudgets } from "@/lib/budgets";
import { nowOf } from "@/lib/core";
import { dailyCost, monthOf } from "@/lib/metering";
import { getOrgPageContext } from "../../org-context";
import { deleteBudgetAction } from "../actions";
import { loadBudget } from "./load";

export default async function BudgetPage({ params }: { params: Promise<{ org: string; id: string }> }) {
  const { org: slug, id } = await params;
  const { ctx, role } = await getOrgPageContext(slug);
  const budget = await loadBudget(ctx, slug, id);
  const now = nowOf(ctx);
  const month = monthOf(now);
  const [t, format, all, alerts, daily] = await Promise.all([
    getTranslations("Costs.budgets"),
    getFormatter(),
    listBudgets(ctx, slug),
    listBudgetAlerts(ctx, slug, { budgetId: budget.id }),
    dailyCost(ctx, slug, {
      from: month.start,
      to: month.end,
      // A service's budget draws its replicas' cost (the service's group), not its whole project's.
      groupBy: budget.serviceId ? "service" : "project",
      project: budget.projectId ?? undefined,
    }),
  ]);
  const b = all.find((x) => x.id === budget.id);
  if (!b) notFound();
  const amount = Number(b.amountUsd);
  const perDay: Record<string, number> = {};
  for (const r of daily.rows) {
    if (budget.serviceId && r.key !== budget.serviceId) continue;
    perDay[r.day] = (perDay[r.day] ?? 0) + r.amountUsd;
  }
  const points = budgetSeries({
    monthStart: month.start,
    monthEnd: month.end,
    now,
    daily: perDay,
    actualUsd: b.forecast.actualUsd,
    forecastUsd: b.forecast.forecastUsd,
    amountUsd: amount,
  });
  const money = (n: number) => format.number(n, { style: "currency", currency: b.currency });
  const pct = (n: number) => format.number(n / 100, { style: "percent", maximumFractionDigits: 1 });
  const canEdit = roleAtLeast(role, "admin");
  const monthName = format.dateTime(month.start, { month: "long", year: "numeric", timeZone: "UTC" });
  return (
    <div className="flex max-w-5xl flex-col gap-5">
      <nav aria-label={t("breadcrumb")} className="text-sm">
        <Link href={`/${slug}/budgets`} className="text-orange-800 underline dark:text-orange-300">
          {t("back")}
        </Link>
      </nav>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold">{b.name}</h1>
          <BudgetStatusBadge status={b.status} blocks={b.blocksLaunches} />
        </div>
        {canEdit ? (
          <div className="flex flex-wrap items-center gap-2">
            <Link
              href={`/${slug}/budgets/${b.id}/edit`}
              className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
            >
              {t("edit")}
            </Link>
            <DeleteBudget name={b.name} action={deleteBudgetAction.bind(null, slug, b.id)} />
          </div>
        ) : null}
      </div>
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {[
          [
            t("scope"),
            b.serviceName ? t("serviceScope", { service: b.serviceName }) : (b.projectName ?? t("wholeOrg")),
          ],
          [t("budget"), t("perMonth", { amount: money(amount) })],
          [t("actual"), `${money(b.forecast.actualUsd)} (${pct(b.usedPct)})`],
          [t("forecast"), `${money(b.forecast.forecastUsd)} (${pct(b.forecastPct)})`],
        ].map(([k, v]) => (
          <div key={k} className="rounded-md bg-slate-50 p-3 dark:bg-slate-900">
            <dt className="text-xs text-slate-600 dark:text-slate-400">{k}</dt>
            <dd className="text-lg font-semibold tabular-nums">{v}</dd>
          </div>
        ))}
      </dl>
      <BudgetChart
        title={t("chart.title", { month: monthName })}
        points={points}
        currency={b.currency}
        summary={t("chart.summary", {
          spent: money(b.forecast.actualUsd),
          amount: money(amount),
          used: pct(b.usedPct),
          forecast: money(b.forecast.forecastUsd),
          forecastPct: pct(b.forecastPct),
        })}
      />
      <section aria-labelledby="settings-heading" className="flex flex-col gap-2">
        <h2 id="settings-heading" className="text-lg font-semibold">
          {t("settingsHeading")}
        </h2>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-medium">{t("thresholdsLabel")}</dt>
          <dd>
            {b.thresholds
              .map((x) => t(x.kind === "actual" ? "thresholdActual" : "thresholdForecast", { pct: x.pct }))
              .join(", ")}
          </dd>
          <dt className="font-medium">{t("actionLabel")}</dt>
          <dd>
            {t(`form.action.${b.actionAt100}`)}
            {b.actionAt100 === "stop_instances" ? ` — ${t("graceValue", { minutes: b.graceMinutes })}` : ""}
          </dd>
          <dt className="font-medium">{t("recipientsLabel")}</dt>
          <dd>
            {t("recipientsValue", { members: b.recipientUserIds.length, emails: b.recipientEmails.length })}
            {b.recipientEmails.length > 0 ? ` (${b.recipientEmails.join(", ")})` : ""}
          </dd>
        </dl>
        <p className="text-xs text-slate-600 dark:text-slate-400">{t("methodNote")}</p>
      </section>
      <BudgetAlertHistory alerts={alerts} currency={b.currency} />
    </div>
  );
}

import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { requireUserCtx } from "@/lib/auth/session";
import { type BudgetWithStatus, listBudgets } from "@/lib/budgets";

async function budgetsAtThreshold(org: string): Promise<BudgetWithStatus[]> {
  try {
    const ctx = await requireUserCtx();
    return (await listBudgets(ctx, org)).filter((b) => b.status !== "ok");
  } catch (err) {
    // The banner is advice on top of every page: if it cannot be computed, the page still renders.
    console.error("[budget-banner] could not read budgets", err);
    return [];
  }
}

/**
 * Shown at the top of every console page of the organization while a budget is at or over one of its
 * thresholds this month (or its forecast is over the amount), server-rendered with the page.
 */
export async function BudgetBanner({ org }: { org: string }) {
  const list = await budgetsAtThreshold(org);
  if (list.length === 0) return null;
  const t = await getTranslations("Costs.banner");
  const format = await getFormatter();
  const money = (n: number, c: string) => format.number(n, { style: "currency", currency: c });
  const pct = (n: number) => format.number(n / 100, { style: "percent", maximumFractionDigits: 0 });
  const exceeded = list.some((b) => b.status === "exceeded");
  return (
    <section
      aria-labelledby="budget-banner-heading"
      className={`mb-4 flex flex-col gap-1 rounded-lg border p-3 text-sm ${
        exceeded
          ? "border-red-700 bg-red-50 text-red-950 dark:border-red-400 dark:bg-red-950/40 dark:text-red-100"
          : "border-amber-600 bg-amber-50 text-amber-950 dark:border-amber-400 dark:bg-amber-950/40 dark:text-amber-100"
      }`}
    >
      <h2 id="budget-banner-heading" className="font-semibold">
        <span aria-hidden="true">{exceeded ? "✕ " : "! "}</span>
        {exceeded ? t("headingExceeded") : t("heading")}
      </h2>
      <ul className="flex flex-col gap-1">
        {list.map((b) => (
          <li key={b.id}>
            <Link href={`/${org}/budgets/${b.id}`} className="font-medium underline">
              {b.name}
            </Link>
            {": "}
            {t("line", {
              spent: money(b.forecast.actualUsd, b.currency),
              amount: money(Number(b.amountUsd), b.currency),
              used: pct(b.usedPct),
              forecast: money(b.forecast.forecastUsd, b.currency),
            })}
            {b.blocksLaunches ? ` ${t("blocked")}` : ""}
          </li>
        ))}
      </ul>
    </section>
  );
}

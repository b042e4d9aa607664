import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { DailyCostChart } from "@/components/costs/daily-cost-chart";
import { EnergyPanel } from "@/components/costs/energy-panel";
import { RangeForm } from "@/components/costs/range-form";
import { SavingsPanel } from "@/components/costs/savings-panel";
import { SpendSummary } from "@/components/costs/spend-summary";
import { TopInstances } from "@/components/costs/top-instances";
import { daysOf, isoDay, parseUsageSearch } from "@/components/costs/usage-search";
import { listGpuModels } from "@/lib/catalog";
import { nowOf } from "@/lib/core";
import {
  COST_GROUPS,
  dailyCost,
  forecastMonthEnd,
  monthlyEnergy,
  savings,
  topInstances,
} from "@/lib/metering";
import { getOrgPageContext } from "../org-context";
import { groupLabeller } from "./labels";

type Search = Record<string, string | string[] | undefined>;

function recentMonths(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1))).slice(0, 7),
  );
}

export default async function UsagePage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string }>;
  searchParams: Promise<Search>;
}) {
  const { org: slug } = await params;
  const { ctx } = await getOrgPageContext(slug);
  const now = nowOf(ctx);
  const { values, range, errors } = parseUsageSearch(await searchParams, now);
  const [t, tg, tgi, label] = await Promise.all([
    getTranslations("Costs.usage"),
    getTranslations("Costs.groups"),
    getTranslations("Costs.groupsInline"),
    groupLabeller(values.group),
  ]);
  const months = [...new Set([...recentMonths(now, 3), values.month])].sort().reverse();
  const [forecast, daily, top, saved, energies, models] = await Promise.all([
    forecastMonthEnd(ctx, slug),
    range ? dailyCost(ctx, slug, { ...range, groupBy: values.group }) : null,
    range ? topInstances(ctx, slug, { ...range, limit: 10 }) : [],
    range ? savings(ctx, slug, range) : null,
    Promise.all(months.map((month) => monthlyEnergy(ctx, slug, { month }))),
    listGpuModels(ctx),
  ]);
  const currency = forecast.currency;
  const base = `/${slug}/usage`;
  const qs = (over: Partial<typeof values>) => new URLSearchParams({ ...values, ...over }).toString();
  const selectedEnergy = energies.find((e) => e.period === values.month) ?? energies[0];
  const nothingYet =
    forecast.actualUsd === 0 &&
    forecast.forecastUsd === 0 &&
    (daily?.rows.length ?? 0) === 0 &&
    top.length === 0 &&
    (saved?.reservations.length ?? 0) === 0;
  const lastMonthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const presets = [
    { label: t("range.thisMonth"), from: `${isoDay(now).slice(0, 7)}-01`, to: isoDay(now) },
    {
      label: t("range.lastMonth"),
      from: isoDay(lastMonthStart),
      to: isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0))),
    },
    { label: t("range.last30"), from: isoDay(new Date(now.getTime() - 29 * 86_400_000)), to: isoDay(now) },
  ];

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <div className="flex flex-wrap gap-3 text-sm">
          <Link href={`${base}/reservations`} className="text-orange-800 underline dark:text-orange-300">
            {t("reservationsLink")}
          </Link>
          <Link href={`/${slug}/budgets`} className="text-orange-800 underline dark:text-orange-300">
            {t("budgetsLink")}
          </Link>
        </div>
      </div>
      <SpendSummary forecast={forecast} />
      <RangeForm
        action={base}
        values={values}
        groups={COST_GROUPS.map((g) => ({ value: g, label: tg(g) }))}
        errors={Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, t(`errors.${v}`)]))}
        presets={presets}
      />
      {nothingYet ? (
        <section
          aria-labelledby="empty-heading"
          className="rounded-lg border border-dashed border-slate-300 p-6 text-center dark:border-slate-700"
        >
          <h2 id="empty-heading" className="text-lg font-semibold">
            {t("empty.heading")}
          </h2>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{t("empty.body")}</p>
          <Link
            href={`/${slug}/catalog`}
            className="mt-3 inline-block rounded-md bg-orange-700 px-3 py-2 text-sm font-medium text-white hover:bg-orange-800"
          >
            {t("empty.action")}
          </Link>
        </section>
      ) : null}
      {range && daily && saved && !nothingYet ? (
        <>
          <div className="flex flex-wrap items-center justify-end gap-3">
            <a
              href={`/api/v1/orgs/${encodeURIComponent(slug)}/usage/export?${new URLSearchParams({
                from: isoDay(range.from),
                to: isoDay(range.to),
              }).toString()}`}
              download
              className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
            >
              {t("export")}
            </a>
          </div>
          <DailyCostChart
            title={t("daily.title", { group: tgi(values.group) })}
            days={daysOf(range)}
            groups={daily.groups.map((g) => ({ ...g, label: label(g.key, g.label) }))}
            rows={daily.rows}
            currency={currency}
            groupLabel={tg(values.group)}
            groupInline={tgi(values.group)}
          />
          <TopInstances org={slug} instances={top} currency={currency} />
          <SavingsPanel
            org={slug}
            savings={saved}
            currency={currency}
            now={now}
            modelNames={Object.fromEntries(models.map((m) => [m.id, m.name]))}
          />
        </>
      ) : null}
      {selectedEnergy && !nothingYet ? (
        <EnergyPanel
          org={slug}
          selected={selectedEnergy}
          months={energies}
          monthHref={(month) => `${base}?${qs({ month })}`}
        />
      ) : null}
    </div>
  );
}

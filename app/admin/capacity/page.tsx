import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/admin/page-header";
import { parseRange, RangeSelector, summarize, TimeSeriesChart } from "@/components/charts";
import { ChartFilters } from "@/components/charts/chart-filters";
import { listGpuModels, listRegions } from "@/lib/catalog";
import { fleetCapacitySeries, getCapacityPlan } from "@/lib/telemetry";
import { first, getAdminContext, type SearchParams } from "../admin-context";
import { type CapacityRow, CapacityTable } from "./capacity-table";
import { CapacityPlanTable } from "./plan-table";

/** Past this many region × model charts the page asks for narrower filters; the table still lists them all. */
const MAX_CHARTS = 8;

export default async function CapacityPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await getAdminContext();
  const sp = await searchParams;
  const [groups, models, t] = await Promise.all([
    listRegions(ctx),
    listGpuModels(ctx),
    getTranslations("Charts"),
  ]);
  const regions = groups.flatMap((g) => g.regions);
  const regionCode = regions.find((r) => r.code === first(sp.region))?.code;
  const gpuModelId = models.find((m) => m.id === first(sp.model))?.id;
  const range = parseRange(first(sp.range), "7d");
  const [fleet, plan] = await Promise.all([fleetCapacitySeries(ctx, { range }), getCapacityPlan(ctx)]);

  const regionName = new Map(regions.map((r) => [r.code, r.name]));
  const modelName = new Map(models.map((m) => [m.id, m.name]));
  // fleetCapacitySeries answers for the whole fleet (a few dozen pairs); the filters only pick what to show.
  const pairs = fleet.series
    .filter(
      (s) => (!regionCode || s.regionCode === regionCode) && (!gpuModelId || s.gpuModelId === gpuModelId),
    )
    .map((s) => {
      const labels = {
        region: regionName.get(s.regionCode) ?? s.regionCode,
        model: modelName.get(s.gpuModelId) ?? s.gpuModelId,
      };
      const series = [
        {
          key: "capacity",
          label: t("capacity.capacity"),
          points: s.points.map((p) => ({ t: p.t, v: p.capacityGpus })),
        },
        { key: "used", label: t("capacity.used"), points: s.points.map((p) => ({ t: p.t, v: p.usedGpus })) },
      ];
      const [cap, used] = series.map(summarize);
      const row: CapacityRow = {
        key: `${s.regionCode}/${s.gpuModelId}`,
        regionName: labels.region,
        gpuModelName: labels.model,
        capacityNow: cap?.latest ?? null,
        usedNow: used?.latest ?? null,
        peakUsed: used?.max ?? null,
      };
      return { row, series, labels };
    })
    .sort((a, b) => share(b.row) - share(a.row));

  return (
    <>
      <PageHeader title={t("capacity.title")} description={t("capacity.intro")} />
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <ChartFilters
          action="/admin/capacity"
          legend={t("queues.filters")}
          keep={{ range }}
          selects={[
            {
              name: "region",
              label: t("capacity.region"),
              value: regionCode,
              options: regions.map((r) => ({ value: r.code, label: `${r.name} (${r.code})` })),
            },
            {
              name: "model",
              label: t("capacity.model"),
              value: gpuModelId,
              options: models.map((m) => ({ value: m.id, label: m.name })),
            },
          ]}
        />
        <RangeSelector value={range} />
      </div>
      <CapacityPlanTable
        rows={plan.filter(
          (r) => (!regionCode || r.regionCode === regionCode) && (!gpuModelId || r.gpuModelId === gpuModelId),
        )}
      />
      {pairs.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("capacity.noPairs")}</p>
      ) : (
        <div className="flex flex-col gap-6">
          <CapacityTable rows={pairs.map((p) => p.row)} />
          {pairs.length > MAX_CHARTS ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {t("queues.showingPairs", { shown: MAX_CHARTS, total: pairs.length })}
            </p>
          ) : null}
          <div className="grid gap-4 xl:grid-cols-2">
            {pairs.slice(0, MAX_CHARTS).map((p) => (
              <TimeSeriesChart
                key={p.row.key}
                title={t("capacity.chartTitle", { model: p.labels.model, region: p.labels.region })}
                range={range}
                unit={t("units.gpus")}
                yAxisLabel={t("capacity.yGpus")}
                series={p.series}
                variant="area"
                emptyMessage={t("capacity.empty")}
              />
            ))}
          </div>
        </div>
      )}
    </>
  );
}

/** Busiest first: the pairs an operator has to act on lead the page. */
function share(r: CapacityRow): number {
  return r.capacityNow ? (r.usedNow ?? 0) / r.capacityNow : 0;
}

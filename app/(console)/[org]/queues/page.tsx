import { getTranslations } from "next-intl/server";
import { parseRange, RangeSelector, TimeSeriesChart } from "@/components/charts";
import { ChartFilters } from "@/components/charts/chart-filters";
import type { ChartSeries } from "@/components/charts/series";
import { listGpuModels, listRegions } from "@/lib/catalog";
import { expectedWaits, type QueueWaitPoint, queueWaitSeries, queueWaitsByOffering } from "@/lib/telemetry";
import { getOrgPageContext } from "../org-context";
import { type DepthRow, QueueDepthTable } from "./queue-depth-table";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

/** One chart per pair is a lot of picture; past this many the page asks for narrower filters. */
const MAX_PAIR_CHARTS = 6;

function toWaitSeries(points: QueueWaitPoint[], labels: { p50: string; p95: string }): ChartSeries[] {
  const minutes = (s: number | null) => (s === null ? null : Math.round((s / 60) * 100) / 100);
  return [
    { key: "p50", label: labels.p50, points: points.map((p) => ({ t: p.t, v: minutes(p.p50Seconds) })) },
    { key: "p95", label: labels.p95, points: points.map((p) => ({ t: p.t, v: minutes(p.p95Seconds) })) },
  ];
}

export default async function QueuesPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string }>;
  searchParams: SearchParams;
}) {
  const { org: slug } = await params;
  const sp = await searchParams;
  const { ctx } = await getOrgPageContext(slug);
  const [groups, models, t] = await Promise.all([
    listRegions(ctx),
    listGpuModels(ctx),
    getTranslations("Charts"),
  ]);
  const regions = groups.flatMap((g) => g.regions);
  // Unknown codes in a hand-edited URL fall back to "all" rather than an empty page.
  const regionCode = regions.find((r) => r.code === first(sp.region))?.code;
  const gpuModelId = models.find((m) => m.id === first(sp.model))?.id;
  const range = parseRange(first(sp.range), "7d");
  const filters = { regionCode, gpuModelId, range };
  const [byPair, pooled, expected] = await Promise.all([
    queueWaitsByOffering(ctx, filters),
    queueWaitSeries(ctx, filters),
    expectedWaits(ctx),
  ]);

  const labels = { p50: t("queues.p50"), p95: t("queues.p95") };
  const key = (r: string, m: string) => `${r}/${m}`;
  const depthByPair = new Map(pooled.depth.map((d) => [key(d.regionCode, d.gpuModelId), d]));
  const expectedByPair = new Map(expected.map((e) => [key(e.regionCode, e.gpuModelId), e]));
  const depthRows: DepthRow[] = byPair.series
    .map((s) => {
      const d = depthByPair.get(key(s.regionCode, s.gpuModelId));
      return {
        regionName: s.regionName,
        gpuModelName: s.gpuModelName,
        queued: d?.queued ?? 0,
        gpusQueued: d?.gpusQueued ?? 0,
        oldestWaitSeconds: d ? d.oldestWaitSeconds : null,
        expectedWaitSeconds: expectedByPair.get(key(s.regionCode, s.gpuModelId))?.p50Seconds ?? null,
      };
    })
    .sort(
      (a, b) =>
        b.queued - a.queued ||
        a.regionName.localeCompare(b.regionName) ||
        a.gpuModelName.localeCompare(b.gpuModelName),
    );
  // Pairs without a wait would be a wall of empty charts: chart the busiest; the table lists every pair.
  const busy = byPair.series.filter((s) => s.waits > 0);
  const charted = byPair.series.length === 1 ? byPair.series : busy.slice(0, MAX_PAIR_CHARTS);

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold">{t("queues.title")}</h1>
        <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-400">{t("queues.intro")}</p>
      </header>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <ChartFilters
          action={`/${slug}/queues`}
          legend={t("queues.filters")}
          keep={{ range }}
          selects={[
            {
              name: "region",
              label: t("queues.region"),
              value: regionCode,
              options: regions.map((r) => ({ value: r.code, label: `${r.name} (${r.code})` })),
            },
            {
              name: "model",
              label: t("queues.model"),
              value: gpuModelId,
              options: models.map((m) => ({ value: m.id, label: m.name })),
            },
          ]}
        />
        <RangeSelector value={range} />
      </div>

      <QueueDepthTable rows={depthRows} />

      {byPair.series.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("queues.noPairs")}</p>
      ) : (
        <section aria-labelledby="wait-charts" className="flex flex-col gap-4">
          <h2 id="wait-charts" className="text-lg font-semibold">
            {t("queues.waitHeading")}
          </h2>
          {byPair.series.length > 1 ? (
            <TimeSeriesChart
              headingLevel={3}
              title={t("queues.allTitle")}
              range={range}
              unit={t("units.minutes")}
              yAxisLabel={t("queues.yWait")}
              series={toWaitSeries(pooled.points, labels)}
              emptyMessage={t("queues.noWaits")}
            />
          ) : null}
          {byPair.series.length > charted.length ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {t("queues.showingBusiest", {
                shown: charted.length,
                busy: busy.length,
                total: byPair.series.length,
              })}
            </p>
          ) : null}
          <div className="grid gap-4 xl:grid-cols-2">
            {charted.map((s) => (
              <TimeSeriesChart
                key={key(s.regionCode, s.gpuModelId)}
                headingLevel={3}
                title={t("queues.waitTitle", { model: s.gpuModelName, region: s.regionName })}
                description={t("queues.waitsCount", { count: s.waits })}
                range={range}
                unit={t("units.minutes")}
                yAxisLabel={t("queues.yWait")}
                series={toWaitSeries(s.points, labels)}
                emptyMessage={t("queues.noWaits")}
              />
            ))}
          </div>
        </section>
      )}
    </div>
  );
}

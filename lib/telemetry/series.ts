import "server-only";
import { z } from "zod";
import { judgeOrgAccess, orgAccessSql } from "@/lib/access";
import {
  type Ctx,
  fieldMessages,
  fieldMessageWith,
  NotFoundError,
  nowOf,
  parseInput,
  UnauthorizedError,
  ValidationError,
} from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { CHART_RANGES, type ChartRange, RANGE_SPECS } from "./ranges";
import {
  type ChartColumns,
  type ChartHeadRow,
  type ChartRow,
  chartHeadQuery,
  chartQuery,
} from "./series-sql";
import { UUID_RE } from "./sql-util";

export const CHART_METRICS = ["utilization", "memory", "power", "temperature"] as const;
export type ChartMetric = (typeof CHART_METRICS)[number];

export const TELEMETRY_FIELD_MESSAGES = fieldMessages("TelemetryFieldErrors", {
  stepInvalid: [
    "For this range the step is a multiple of {multiple} seconds from {min} to {max}",
    { multiple: 10, min: 10, max: 3600 },
  ],
});
const M = TELEMETRY_FIELD_MESSAGES;

/** Shared by the instance page (search params) and the API route. */
export const utilizationQuerySchema = z.object({
  range: z.enum(CHART_RANGES).default("1h"),
  metric: z.enum(CHART_METRICS).default("utilization"),
  /**
   * Bin width in seconds (the downsampling resolution); the range's own (at most ~600 points) when absent.
   * Coarser is allowed up to the whole range, finer than the range's own is not (it would exceed ~600 points).
   */
  step: z.coerce.number({ error: M.stepInvalid }).int(M.stepInvalid).positive(M.stepInvalid).optional(),
});
export type UtilizationQuery = z.input<typeof utilizationQuerySchema>;

/** One chart point: bin start (epoch ms) and the value, null where the instance reported nothing. */
export type SeriesPoint = { t: number; v: number | null };

export type UtilizationSeries = {
  instanceId: string;
  range: ChartRange;
  metric: ChartMetric;
  unit: "%" | "GiB" | "W" | "°C";
  /** Where the points were aggregated from: a rollup level (ranges.ts; the newest edge from raw samples). */
  source: "raw" | "rollup";
  binSeconds: number;
  from: string;
  to: string;
  /** Top of the y-axis: 100 %, the GPU (or MIG slice) memory, the power limit, or a thermal ceiling. */
  yMax: number;
  gpus: Array<{ gpuIndex: number; points: SeriesPoint[] }>;
  /** The mean over all GPUs per bin. */
  average: SeriesPoint[];
  /** Over the whole window, for the chart's text summary. */
  summary: { mean: number | null; peak: number | null; latest: number | null };
};

/** Each metric's columns: the raw sample's, the 5-minute rollup's and the chart levels' (and its unit). */
export const CHART_COLUMNS: Record<ChartMetric, ChartColumns & { unit: UtilizationSeries["unit"] }> = {
  utilization: {
    raw: "utilization_pct",
    avg: "utilization_avg",
    max: "utilization_max",
    wsum: "utilization_wsum",
    peak: "utilization_peak",
    unit: "%",
  },
  memory: {
    raw: "memory_used_gib",
    avg: "memory_used_avg",
    max: "memory_used_avg",
    wsum: "memory_used_wsum",
    peak: "memory_used_peak",
    unit: "GiB",
  },
  power: {
    raw: "power_watts",
    avg: "power_avg",
    max: "power_avg",
    wsum: "power_wsum",
    peak: "power_peak",
    unit: "W",
  },
  temperature: {
    raw: "temperature_c",
    avg: "temperature_avg",
    max: "temperature_avg",
    wsum: "temperature_wsum",
    peak: "temperature_peak",
    unit: "°C",
  },
};

/**
 * GPU utilization / memory / power / temperature of one instance over a range, per GPU and averaged, downsampled
 * in SQL (bins over the range's chart level, the newest edge from finer sources: series-sql.ts) to at most
 * ~600 points per series, reading about one level row per bucket whatever the GPU count (≤ MAX_ROWS).
 * Tenant-scoped: an instance of another organization is NotFound, and nothing is read for a refused request.
 * Two round trips: the access check with the instance (its GPU count shapes the chart statement), the chart.
 */
export async function utilizationSeries(
  ctx: Ctx,
  orgSlug: string,
  instanceId: string,
  raw: UtilizationQuery & { now?: Date },
): Promise<UtilizationSeries> {
  if (ctx.actor.kind !== "user") throw new UnauthorizedError();
  const exec = readDb(ctx);
  // The access check and the instance in one statement that reads nothing for anyone the gate refuses; its
  // rules (judgeOrgAccess) run on the row before anything else, so errors come in the gate's order.
  const access = orgAccessSql(ctx, orgSlug);
  if (!access) throw new NotFoundError("Organization");
  const id = UUID_RE.test(instanceId) ? instanceId : null;
  const [head] = (await executePrepared<ChartHeadRow>(exec, chartHeadQuery(access, id))).rows;
  const { org } = judgeOrgAccess(ctx, head, "viewer");
  const { range, metric, step } = parseInput(utilizationQuerySchema, raw);
  if (!head || head.gpu_count === null) throw new NotFoundError("Instance");
  const gpuCount = Number(head.gpu_count);
  const spec = RANGE_SPECS[range];
  const binSeconds = binSecondsFor(range, step);
  const now = raw.now ?? nowOf(ctx);
  const binMs = binSeconds * 1000;
  const fromMs = now.getTime() - spec.seconds * 1000;
  const from = new Date(fromMs);
  const col = CHART_COLUMNS[metric];
  const chartSql = chartQuery({
    instanceId,
    gpuCount,
    orgId: org.id,
    col,
    level: spec.level,
    binSeconds,
    from,
    to: now,
  });
  const [chart] = gpuCount > 0 ? (await executePrepared<ChartRow>(exec, chartSql)).rows : [];

  // Shape only: the aggregation happened in SQL; here the bins without data become explicit nulls (gaps).
  const firstBin = Math.floor(fromMs / binMs) * binMs;
  const bins = Math.floor(now.getTime() / binMs) - firstBin / binMs + 1;
  const emptySeries = () =>
    Array.from({ length: bins }, (_, k): SeriesPoint => ({ t: firstBin + k * binMs, v: null }));
  const gpus = Array.from({ length: gpuCount }, (_, gpuIndex) => ({ gpuIndex, points: emptySeries() }));
  const average = emptySeries();
  const fill = (points: SeriesPoint[], ks: number[], values: Array<number | null> | null | undefined) => {
    if (values)
      for (let j = 0; j < ks.length; j++) {
        const point = points[ks[j] as number];
        if (point) point.v = round(values[j] ?? null);
      }
  };
  const ks = chart?.k ?? [];
  for (const g of gpus) fill(g.points, ks, chart?.gpus?.[g.gpuIndex]);
  fill(average, ks, chart?.avg);
  // Whole level rows: each GPU's value written as a real, whose float32 Math.fround recovers exactly.
  const lk = chart?.lk ?? [];
  const lv = chart?.lv ?? [];
  for (let j = 0; j < lk.length; j++) {
    const row = lv[j] ?? [];
    for (const g of gpus) {
      const point = g.points[lk[j] as number];
      const v = row[g.gpuIndex];
      if (point && v !== undefined) point.v = round(v === null ? null : Math.fround(v));
    }
  }
  fill(average, lk, chart?.la);
  const summary: UtilizationSeries["summary"] = {
    mean: round(chart?.mean ?? null),
    peak: round(chart?.peak ?? null),
    latest: null,
  };
  for (let k = average.length - 1; k >= 0 && summary.latest === null; k--)
    summary.latest = average[k]?.v ?? null;
  // A MIG slice draws its share of the board's power limit.
  const powerMax = Math.round((Number(head.tdp_watts) * Math.min(7, Number(head.slices_per_gpu))) / 7);
  const yMax = {
    utilization: 100,
    memory: Number(head.gpu_memory_gib),
    power: powerMax,
    temperature: 95,
  }[metric];
  return {
    instanceId,
    range,
    metric,
    unit: col.unit,
    source: spec.source,
    binSeconds,
    from: from.toISOString(),
    to: now.toISOString(),
    yMax,
    gpus,
    average,
    summary,
  };
}

const round = (v: number | string | null) => (v === null ? null : Math.round(Number(v) * 100) / 100);

/** The bin width for a range and an optional requested step; a step the range cannot serve is a field error. */
export function binSecondsFor(range: ChartRange, step: number | undefined): number {
  const spec = RANGE_SPECS[range];
  if (step === undefined) return spec.binSeconds;
  const multiple = spec.level;
  if (step < spec.binSeconds || step > spec.seconds || step % multiple !== 0) {
    throw ValidationError.field(
      "step",
      fieldMessageWith(M.stepInvalid, { multiple, min: spec.binSeconds, max: spec.seconds }),
    );
  }
  return step;
}

import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { requireOrgAccess } from "@/lib/access";
import {
  type Ctx,
  fieldMessages,
  fieldMessageWith,
  NotFoundError,
  nowOf,
  parseInput,
  ValidationError,
} from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { loadProviderInstances } from "./provider-instances";
import { CHART_RANGES, type ChartRange, RANGE_SPECS } from "./ranges";
import { epochMs, seconds, UUID_RE } from "./sql-util";

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
  /** Where the points were aggregated from: raw 10 s samples or a rollup level (ranges.ts). */
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

const COLUMNS: Record<
  ChartMetric,
  { raw: string; avg: string; max: string; unit: UtilizationSeries["unit"] }
> = {
  utilization: { raw: "utilization_pct", avg: "utilization_avg", max: "utilization_max", unit: "%" },
  memory: { raw: "memory_used_gib", avg: "memory_used_avg", max: "memory_used_avg", unit: "GiB" },
  power: { raw: "power_watts", avg: "power_avg", max: "power_avg", unit: "W" },
  temperature: { raw: "temperature_c", avg: "temperature_avg", max: "temperature_avg", unit: "°C" },
};

type AggRow = {
  is_total: number;
  is_avg: number;
  gpu_index: number | null;
  t: number | null;
  v: number | null;
  peak: number | null;
};

/**
 * GPU utilization / memory / power / temperature of one instance over a range, per GPU and averaged, downsampled
 * in SQL (date_bin over the range's source: raw samples for 1 h, a rollup level beyond) to at most ~600 points per
 * series, reading at most MAX_ROWS_PER_GPU rows per GPU.
 * Tenant-scoped: an instance of another organization is NotFound.
 */
export async function utilizationSeries(
  ctx: Ctx,
  orgSlug: string,
  instanceId: string,
  raw: UtilizationQuery & { now?: Date },
): Promise<UtilizationSeries> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const { range, metric, step } = parseInput(utilizationQuerySchema, raw);
  if (!UUID_RE.test(instanceId)) throw new NotFoundError("Instance");
  const exec = readDb(ctx);
  const [inst] = await loadProviderInstances(exec, sql`i.id = ${instanceId} and i.org_id = ${org.id}`);
  if (!inst) throw new NotFoundError("Instance");

  const spec = RANGE_SPECS[range];
  const binSeconds = binSecondsFor(range, step);
  const now = raw.now ?? nowOf(ctx);
  const binMs = binSeconds * 1000;
  const fromMs = now.getTime() - spec.seconds * 1000;
  const from = new Date(fromMs);
  const col = COLUMNS[metric];
  let rows = await exec.execute<AggRow>(
    spec.source === "raw"
      ? rawQuery(instanceId, inst.gpuCount, col, binSeconds, from, now)
      : rollupQuery(instanceId, inst.gpuCount, col, spec.level, binSeconds, from, now),
  );
  // A level is written by the rollup job (every minute) for whole buckets only: an instance younger than its
  // first bucket has raw samples and no level yet — read those, binned alike, rather than show no samples.
  if (spec.source !== "raw" && !rows.rows.some((r) => Number(r.is_total) !== 1)) {
    rows = await exec.execute<AggRow>(rawQuery(instanceId, inst.gpuCount, col, binSeconds, from, now));
  }

  // Shape only: the aggregation happened in SQL; here the bins without data become explicit nulls (gaps).
  const firstBin = Math.floor(fromMs / binMs) * binMs;
  const bins = Math.floor(now.getTime() / binMs) - firstBin / binMs + 1;
  const empty = () =>
    Array.from({ length: bins }, (_, k): SeriesPoint => ({ t: firstBin + k * binMs, v: null }));
  const gpus = Array.from({ length: inst.gpuCount }, (_, gpuIndex) => ({ gpuIndex, points: empty() }));
  const average = empty();
  const summary: UtilizationSeries["summary"] = { mean: null, peak: null, latest: null };
  for (const r of rows.rows) {
    if (Number(r.is_total) === 1) {
      summary.mean = round(r.v);
      summary.peak = round(r.peak);
      continue;
    }
    const k = Math.round((Number(r.t) - firstBin) / binMs);
    const series = Number(r.is_avg) === 1 ? average : gpus[Number(r.gpu_index)]?.points;
    const point = series?.[k];
    if (point) point.v = round(r.v);
  }
  summary.latest = [...average].reverse().find((p) => p.v !== null)?.v ?? null;
  // A MIG slice draws its share of the board's power limit.
  const powerMax = Math.round((inst.tdpWatts * Math.min(7, inst.slicesPerGpu)) / 7);
  const yMax = { utilization: 100, memory: inst.gpuMemoryGib, power: powerMax, temperature: 95 }[metric];
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

type Col = (typeof COLUMNS)[ChartMetric];

/** GROUPING SETS give the per-GPU bins, the all-GPU average per bin and the window total in one pass. */
function rawQuery(id: string, gpuCount: number, col: Col, binSeconds: number, from: Date, to: Date): SQL {
  const v = sql.raw(`m.${col.raw}`);
  return sql`
    with s as (
      select g.gpu_index, date_bin(${seconds(binSeconds)}, m.at, timestamptz 'epoch') as t, ${v} as v
      from generate_series(0, ${gpuCount - 1}) as g(gpu_index)
      cross join lateral (
        select m.at, m.${sql.raw(col.raw)} from metric_samples m
        where m.instance_id = ${id} and m.gpu_index = g.gpu_index and m.at >= ${from} and m.at <= ${to}
      ) m
    )
    select grouping(s.t) as is_total, grouping(s.gpu_index) as is_avg, s.gpu_index, ${epochMs(sql`s.t`)} as t,
      avg(s.v)::float8 as v, max(s.v)::float8 as peak
    from s group by grouping sets ((s.gpu_index, s.t), (s.t), ())`;
}

/** Rollup rows are weighted by their sample counts so a partly filled bucket counts for what it holds. */
function rollupQuery(
  id: string,
  gpuCount: number,
  col: Col,
  level: number,
  binSeconds: number,
  from: Date,
  to: Date,
): SQL {
  return sql`
    with s as (
      select g.gpu_index, date_bin(${seconds(binSeconds)}, r.bucket, timestamptz 'epoch') as t,
        r.v * r.samples as vw, r.samples as n, r.vmax
      from generate_series(0, ${gpuCount - 1}) as g(gpu_index)
      cross join lateral (
        select r.bucket, r.samples, r.${sql.raw(col.avg)} as v, r.${sql.raw(col.max)} as vmax
        from metric_rollup_levels r
        where r.instance_id = ${id} and r.gpu_index = g.gpu_index and r.level_s = ${level}
          and r.bucket >= ${from} and r.bucket <= ${to}
      ) r
    )
    select grouping(s.t) as is_total, grouping(s.gpu_index) as is_avg, s.gpu_index, ${epochMs(sql`s.t`)} as t,
      (sum(s.vw) / sum(s.n))::float8 as v, max(s.vmax)::float8 as peak
    from s group by grouping sets ((s.gpu_index, s.t), (s.t), ())`;
}

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

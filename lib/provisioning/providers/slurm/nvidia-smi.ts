import type { MetricSample } from "../types";

/** The fields asked of nvidia-smi, in this order (`--query-gpu=` takes them comma-separated). */
export const NVIDIA_SMI_FIELDS = [
  "index",
  "name",
  "utilization.gpu",
  "memory.used",
  "memory.total",
  "power.draw",
  "temperature.gpu",
] as const;

export const NVIDIA_SMI_ARGS = [
  `--query-gpu=${NVIDIA_SMI_FIELDS.join(",")}`,
  "--format=csv,noheader,nounits",
];

export type GpuReading = {
  index: number;
  name: string;
  /** null where the GPU does not report it ("[N/A]": utilization of a GPU in MIG mode; "[Not Supported]"). */
  utilizationPct: number | null;
  memoryUsedMib: number | null;
  memoryTotalMib: number | null;
  powerWatts: number | null;
  temperatureC: number | null;
};

function num(v: string | undefined): number | null {
  if (v === undefined) return null;
  const t = v.trim();
  if (t === "" || t.startsWith("[")) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/**
 * `nvidia-smi --query-gpu=… --format=csv,noheader,nounits` → one reading per GPU line. The name may not hold a
 * comma (NVIDIA's names do not), so a plain split is exact; a line with the wrong field count is refused.
 */
export function parseNvidiaSmi(text: string): GpuReading[] {
  const out: GpuReading[] = [];
  for (const [n, line] of text.split("\n").entries()) {
    if (!line.trim()) continue;
    const f = line.split(",").map((x) => x.trim());
    if (f.length !== NVIDIA_SMI_FIELDS.length) {
      throw new Error(`nvidia-smi line ${n + 1}: ${f.length} fields, expected ${NVIDIA_SMI_FIELDS.length}`);
    }
    const index = num(f[0]);
    if (index === null) throw new Error(`nvidia-smi line ${n + 1}: no GPU index`);
    out.push({
      index,
      name: f[1] as string,
      utilizationPct: num(f[2]),
      memoryUsedMib: num(f[3]),
      memoryTotalMib: num(f[4]),
      powerWatts: num(f[5]),
      temperatureC: num(f[6]),
    });
  }
  return out;
}

/**
 * Readings of the job's GPUs → Forja's samples (GPU index within the instance, 0..n-1). `hostIndexes`: the
 * node's GPU indexes the job holds (from Slurm's GRES IDX) when the step sees every GPU of the node (no
 * ConstrainDevices); null when it sees only its own. A GPU that does not report utilization (MIG mode) gives
 * no sample: zero would look idle and trip idle auto-shutdown.
 */
export function toSamples(
  readings: GpuReading[],
  at: Date,
  opts: { hostIndexes: number[] | null; gpuCount: number },
): MetricSample[] {
  const mine = opts.hostIndexes
    ? readings.filter((r) => (opts.hostIndexes as number[]).includes(r.index))
    : readings.slice(0, opts.gpuCount);
  const out: MetricSample[] = [];
  for (const [i, r] of mine.entries()) {
    if (r.utilizationPct === null || r.memoryUsedMib === null) continue;
    out.push({
      gpuIndex: i,
      at,
      utilizationPct: r.utilizationPct,
      memoryUsedGib: Math.round((r.memoryUsedMib / 1024) * 100) / 100,
      powerWatts: r.powerWatts ?? 0,
      temperatureC: r.temperatureC ?? 0,
    });
  }
  return out;
}

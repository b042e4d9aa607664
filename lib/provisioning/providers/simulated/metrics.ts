import type { MetricSample, ProviderInstance } from "../types";
import { clamp, hashNormal } from "./prng";
import { memoryFractionAt, TICK_MS, utilizationAt } from "./workloads";

/** Idle draw of a GPU as a share of its board power (H100/A100 idle at ~15–20 % of TDP). */
export const IDLE_POWER_SHARE = 0.17;
const AMBIENT_C = 30;
const THERMAL_RISE_C = 50;
/** Temperature follows power through a first-order lag (~60 s), truncated to 4 minutes of history. */
const LAG_TICKS = 24;
const LAG_WEIGHTS = (() => {
  const w = Array.from({ length: LAG_TICKS }, (_, i) => Math.exp(-i / 6));
  const total = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / total);
})();
const K_POWER_NOISE = 51;
const K_TEMP_NOISE = 52;

/** The power envelope of what the instance holds: a MIG slice draws its share of the board. */
export function powerEnvelope(inst: Pick<ProviderInstance, "tdpWatts" | "slicesPerGpu">) {
  const max = inst.tdpWatts * (Math.min(7, inst.slicesPerGpu) / 7);
  return { idle: max * IDLE_POWER_SHARE, max };
}

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

/**
 * Samples every 10 s (aligned to the epoch) for each GPU of a running instance in (from, to], never before it
 * started. Pure: the same instance seed and window give the same samples whichever process asks.
 */
export function simulatedSamples(inst: ProviderInstance, from: Date, to: Date): MetricSample[] {
  if (!inst.startedAt) return [];
  const startMs = inst.startedAt.getTime();
  const startTick = Math.ceil(startMs / TICK_MS);
  const firstTick = Math.max(startTick, Math.floor(from.getTime() / TICK_MS) + 1);
  const lastTick = Math.floor(to.getTime() / TICK_MS);
  if (lastTick < firstTick) return [];
  const { idle, max } = powerEnvelope(inst);
  const out: MetricSample[] = [];
  const count = lastTick - firstTick + 1;
  for (let gpu = 0; gpu < inst.gpuCount; gpu++) {
    // Power for the lag window before the first tick too, so temperature does not depend on where a window starts.
    const powers = new Float64Array(count + LAG_TICKS - 1);
    const utils = new Float64Array(count);
    for (let i = 0; i < powers.length; i++) {
      const tick = firstTick - (LAG_TICKS - 1) + i;
      if (tick < startTick) {
        powers[i] = idle;
        continue;
      }
      const u = utilizationAt(inst.workload, inst.simSeed, gpu, tick, startTick);
      const noise = hashNormal(inst.simSeed, K_POWER_NOISE, gpu, tick) * 0.012 * max;
      powers[i] = clamp(idle + (max - idle) * (u / 100) ** 1.1 + noise, idle, max);
      if (i >= LAG_TICKS - 1) utils[i - (LAG_TICKS - 1)] = u;
    }
    for (let j = 0; j < count; j++) {
      const tick = firstTick + j;
      const u = utils[j] as number;
      let lagged = 0;
      for (let k = 0; k < LAG_TICKS; k++)
        lagged += (LAG_WEIGHTS[k] as number) * (powers[j + LAG_TICKS - 1 - k] as number);
      const temp =
        AMBIENT_C + THERMAL_RISE_C * (lagged / max) + hashNormal(inst.simSeed, K_TEMP_NOISE, gpu, tick) * 0.3;
      const memFrac = memoryFractionAt(inst.workload, inst.simSeed, gpu, tick, u);
      out.push({
        gpuIndex: gpu,
        at: new Date(tick * TICK_MS),
        utilizationPct: round(u, 1),
        memoryUsedGib: round(memFrac * inst.gpuMemoryGib, 2),
        powerWatts: round(powers[j + LAG_TICKS - 1] as number, 1),
        temperatureC: round(temp, 1),
      });
    }
  }
  return out;
}

import { clamp, hashNormal, hashUnit } from "./prng";

/**
 * Workload shapes of the simulated GPUs, as pure functions of (seed, GPU, 10-second tick). Numbers are chosen to
 * look like real fleets: training jobs keep GPUs busy with short evaluation dips, notebooks sit idle most of the
 * time with bursts when someone runs a cell, inference follows the daily traffic curve.
 */
export type Workload = "training" | "notebook" | "inference";

export const TICK_MS = 10_000;
const TICKS_PER_HOUR = 360;

// Stream keys keep the random streams of different quantities independent.
const K = {
  noise: 11,
  gpuBase: 12,
  evalPeriod: 13,
  evalLength: 14,
  evalPhase: 15,
  nbSlot: 21,
  nbBurst: 22,
  nbLevel: 23,
  nbAlloc: 24,
  infNoise: 31,
  infSpike: 32,
  memFrac: 41,
  memNoise: 42,
} as const;

/** GPU utilization in percent at a tick; `startTick` is when the workload started (for the warm-up ramp). */
export function utilizationAt(
  workload: Workload,
  seed: number,
  gpu: number,
  tick: number,
  startTick: number,
): number {
  const sinceStart = tick - startTick;
  switch (workload) {
    case "training": {
      // Data loading and model build: GPUs ramp up over the first two minutes.
      if (sinceStart < 12)
        return clamp(5 + sinceStart * 5 + hashNormal(seed, K.noise, gpu, tick) * 2, 0, 100);
      const period = 180 + Math.floor(hashUnit(seed, K.evalPeriod) * 180); // an eval every 30–60 min
      const length = 12 + Math.floor(hashUnit(seed, K.evalLength) * 12); // lasting 2–4 min
      const phase = Math.floor(hashUnit(seed, K.evalPhase) * period);
      if ((tick + phase) % period < length) {
        return clamp(32 + hashNormal(seed, K.noise, gpu, tick) * 6, 15, 50);
      }
      const base = 91 + hashUnit(seed, K.gpuBase, gpu) * 5;
      return clamp(base + hashNormal(seed, K.noise, gpu, tick) * 1.8, 85, 99.5);
    }
    case "notebook": {
      // 15-minute slots; about one in four has someone actively working, with one-minute bursts inside.
      const slot = Math.floor(tick / 90);
      if (hashUnit(seed, K.nbSlot, slot) >= 0.25) {
        return clamp(0.6 + hashUnit(seed, K.noise, gpu, tick) * 1.6, 0, 100);
      }
      const minute = Math.floor(tick / 6);
      if (hashUnit(seed, K.nbBurst, minute) < 0.45) {
        const level = 45 + hashUnit(seed, K.nbLevel, minute) * 53;
        return clamp(level + hashNormal(seed, K.noise, gpu, tick) * 4 - gpu * 6, 0, 100);
      }
      return clamp(2 + hashUnit(seed, K.noise, gpu, tick) * 6, 0, 100);
    }
    case "inference": {
      // Daily traffic (UTC): trough around 03:00, peak around 15:00, plus noise and short spikes.
      const hourOfDay = (tick / TICKS_PER_HOUR) % 24;
      const load = 0.5 + 0.38 * Math.sin((2 * Math.PI * (hourOfDay - 9)) / 24);
      const spike = hashUnit(seed, K.infSpike, Math.floor(tick / 3)) < 0.03 ? 15 : 0;
      return clamp(load * 100 + spike + hashNormal(seed, K.infNoise, gpu, tick) * 4, 2, 100);
    }
  }
}

/** Fraction of the GPU (or MIG slice) memory in use: allocation follows the workload's activity. */
export function memoryFractionAt(
  workload: Workload,
  seed: number,
  gpu: number,
  tick: number,
  utilizationPct: number,
): number {
  const u = utilizationPct / 100;
  const jitter = hashNormal(seed, K.memNoise, gpu, tick) * 0.004;
  switch (workload) {
    case "training": {
      // Weights, optimizer state and activations stay allocated for the whole run.
      const frac = 0.74 + hashUnit(seed, K.memFrac) * 0.18;
      return clamp(frac * (0.93 + 0.07 * u) + jitter, 0.02, 0.99);
    }
    case "notebook": {
      const slot = Math.floor(tick / 90);
      const active = hashUnit(seed, K.nbSlot, slot) < 0.25;
      // An active session holds tensors between cells; an idle kernel keeps only the CUDA context.
      const held = active ? 0.2 + hashUnit(seed, K.nbAlloc, slot) * 0.45 : 0.015;
      return clamp(held + 0.15 * u + jitter, 0.005, 0.99);
    }
    case "inference": {
      const weights = 0.42 + hashUnit(seed, K.memFrac) * 0.1;
      return clamp(weights + 0.38 * u + jitter, 0.05, 0.99); // KV cache grows with traffic
    }
  }
}

import type { LogLine, ProviderInstance } from "../types";
import { hashNormal, hashUnit } from "./prng";

/**
 * Container logs of the simulated workload: the image pull and CUDA start-up, then lines shaped by the
 * workload (training steps with a decreasing loss, inference requests following the daily traffic, Jupyter
 * server messages). Pure functions of (seed, time) like the metrics, so a window always reads the same.
 */
const LOG_TICK_MS = 5_000;
const K = { layer: 61, warn: 62, req: 63, latency: 64, tokens: 65, nb: 66, loss: 67 } as const;

type Line = Omit<LogLine, "at"> & { offsetMs: number };

function hex(seed: number, key: number, len: number): string {
  let s = "";
  for (let i = 0; s.length < len; i++) s += Math.floor(hashUnit(seed, key, i) * 0xffffffff).toString(16);
  return s.slice(0, len);
}

function startupLines(inst: ProviderInstance): Line[] {
  const ref = `registry.forja.local/images/${inst.imageId}`;
  const out: Line[] = [{ offsetMs: 0, stream: "stdout", text: `Pulling image ${ref}` }];
  for (let i = 0; i < 3; i++) {
    out.push({
      offsetMs: 400 + i * 700,
      stream: "stdout",
      text: `${hex(inst.simSeed, K.layer + i, 12)}: Pull complete`,
    });
  }
  out.push({ offsetMs: 2600, stream: "stdout", text: `Status: Downloaded newer image for ${ref}` });
  out.push({
    offsetMs: 3000,
    stream: "stdout",
    text: `Starting ${inst.kind} ${inst.name} on node ${(inst.nodeId ?? "sim").slice(0, 8)}`,
  });
  out.push({
    offsetMs: 3600,
    stream: "stdout",
    text: `CUDA 12.4 initialised (driver 550.90.07): ${inst.gpuCount} device(s) visible`,
  });
  const slice = inst.slicesPerGpu < 7 ? ` MIG ${inst.slicesPerGpu}g.${inst.gpuMemoryGib}gb` : "";
  for (let g = 0; g < inst.gpuCount; g++) {
    out.push({
      offsetMs: 3700 + g * 10,
      stream: "stdout",
      text: `  GPU ${g}: ${inst.gpuModelId.toUpperCase()}${slice}, ${inst.gpuMemoryGib} GiB`,
    });
  }
  if (inst.workload === "training") {
    out.push({ offsetMs: 6000, stream: "stdout", text: "Loading dataset shards (128 files)…" });
    out.push({
      offsetMs: 9000,
      stream: "stdout",
      text: `Model initialised: 7.1B parameters, bf16, FSDP over ${inst.gpuCount} GPU(s)`,
    });
  } else if (inst.workload === "inference") {
    out.push({ offsetMs: 6000, stream: "stdout", text: "Loading model weights (safetensors, 14.2 GB)…" });
    out.push({ offsetMs: 12000, stream: "stdout", text: "INFO:     Uvicorn running on http://0.0.0.0:8000" });
  } else {
    out.push({
      offsetMs: 5000,
      stream: "stdout",
      text: "[I ServerApp] Jupyter Server 2.14.2 is running at: http://0.0.0.0:8888/lab",
    });
  }
  return out;
}

/** Lines emitted in the 5-second log tick `n` (counted from the start of the workload). */
function tickLines(inst: ProviderInstance, n: number, absTick: number): Line[] {
  const seed = inst.simSeed;
  if (n < 3) return []; // start-up lines cover the first seconds
  switch (inst.workload) {
    case "training": {
      if (n % 6 !== 0) return []; // a step line every 30 s
      const step = (n / 6) * 50;
      const loss = 0.85 + 2.9 * Math.exp(-step / 6000) + hashNormal(seed, K.loss, n) * 0.02;
      const tps = Math.round(3100 * inst.gpuCount * (0.97 + hashUnit(seed, K.tokens, n) * 0.06));
      const lines: Line[] = [
        {
          offsetMs: 0,
          stream: "stdout",
          text: `step ${step} | loss ${loss.toFixed(4)} | lr 3.0e-4 | ${tps} tokens/s`,
        },
      ];
      if (step % 2000 === 0) {
        const val = loss + 0.04 + hashNormal(seed, K.loss, n, 1) * 0.01;
        lines.push({
          offsetMs: 200,
          stream: "stdout",
          text: `eval | step ${step} | val_loss ${val.toFixed(4)}`,
        });
      }
      if (step % 5000 === 0) {
        lines.push({ offsetMs: 400, stream: "stdout", text: `Saved checkpoint /checkpoints/step-${step}` });
      }
      if (hashUnit(seed, K.warn, n) < 0.004) {
        lines.push({ offsetMs: 600, stream: "stderr", text: "UserWarning: grad norm 12.3 clipped to 1.0" });
      }
      return lines;
    }
    case "inference": {
      const hourOfDay = ((absTick * LOG_TICK_MS) / 3_600_000) % 24;
      const load = 0.5 + 0.38 * Math.sin((2 * Math.PI * (hourOfDay - 9)) / 24);
      if (hashUnit(seed, K.req, n) > load) return [];
      const ms = Math.round(120 + hashUnit(seed, K.latency, n) * 400 * (0.5 + load));
      const prompt = 40 + Math.floor(hashUnit(seed, K.tokens, n) * 900);
      const completion = 16 + Math.floor(hashUnit(seed, K.tokens, n, 1) * 480);
      const fail = hashUnit(seed, K.warn, n) < 0.005;
      return [
        {
          offsetMs: Math.floor(hashUnit(seed, K.req, n, 1) * 4000),
          stream: fail ? "stderr" : "stdout",
          text: fail
            ? `ERROR:    POST /v1/completions 503 ${ms}ms (queue full)`
            : `INFO:     POST /v1/completions 200 ${ms}ms prompt_tokens=${prompt} completion_tokens=${completion}`,
        },
      ];
    }
    case "notebook": {
      const slot = Math.floor((absTick * LOG_TICK_MS) / 900_000);
      const active = hashUnit(seed, 21, slot) < 0.25; // the same 15-minute slots as the GPU activity
      if (!active || hashUnit(seed, K.nb, n) > 0.04) return [];
      const texts = [
        "[I ServerApp] Saving file at /work/experiment.ipynb",
        `[I ServerApp] Kernel restarted: ${hex(seed, K.nb + n, 8)}`,
        "[I ServerApp] Starting buffering for kernel session",
      ];
      const text = texts[Math.floor(hashUnit(seed, K.nb, n, 1) * texts.length)] as string;
      return [{ offsetMs: 1000, stream: "stdout", text }];
    }
  }
}

/** The last `limit` lines (oldest first) written in (from, to], never before the workload started. */
export function simulatedLogs(inst: ProviderInstance, from: Date, to: Date, limit: number): LogLine[] {
  if (!inst.startedAt || limit <= 0) return [];
  const start = inst.startedAt.getTime();
  const lo = Math.max(from.getTime(), start - 1);
  const hi = to.getTime();
  if (hi <= lo) return [];
  const startTick = Math.ceil(start / LOG_TICK_MS);
  const reversed: LogLine[] = [];
  const inWindow = (ms: number) => ms > lo && ms <= hi;
  const take = (lines: Line[], base: number) => {
    for (let i = lines.length - 1; i >= 0 && reversed.length < limit; i--) {
      const l = lines[i] as Line;
      const at = base + l.offsetMs;
      if (inWindow(at)) reversed.push({ at: new Date(at), stream: l.stream, text: l.text });
    }
  };
  const firstTick = Math.max(startTick, Math.floor(lo / LOG_TICK_MS));
  for (let t = Math.floor(hi / LOG_TICK_MS); t >= firstTick && reversed.length < limit; t--) {
    take(tickLines(inst, t - startTick, t), t * LOG_TICK_MS);
  }
  if (reversed.length < limit) take(startupLines(inst), start);
  return reversed.reverse();
}

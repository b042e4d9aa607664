import { afterEach, describe, expect, it } from "vitest";
import type { ProviderInstance } from "../../types";
import { IDLE_POWER_SHARE, simulatedProvider as sim } from "../index";

const H = 3_600_000;
// A Wednesday at 00:00 UTC, so whole days line up with the inference daily cycle.
const T0 = Date.UTC(2025, 4, 7);

function inst(over: Partial<ProviderInstance> = {}): ProviderInstance {
  return {
    id: "6f1c2a9e-0000-4000-8000-000000000001",
    orgId: "00000000-0000-4000-8000-000000000000",
    name: "run",
    kind: "container",
    workload: "training",
    regionCode: "eu-es-mad1",
    gpuModelId: "h100",
    gpuCount: 2,
    slicesPerGpu: 7,
    gpuMemoryGib: 80,
    tdpWatts: 700,
    pricingModel: "on_demand",
    imageId: "pytorch-2.5-cuda12.4",
    nodeId: "9a8b7c6d-0000-4000-8000-000000000000",
    simSeed: 1234,
    startedAt: new Date(T0),
    ...over,
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const util = (i: ProviderInstance, fromH: number, toH: number) =>
  sim.samples(i, new Date(T0 + fromH * H), new Date(T0 + toH * H)).map((s) => s.utilizationPct);

describe("simulated provider: determinism", () => {
  it("gives the same samples and logs for the same seed and window, and different ones for another seed", () => {
    const from = new Date(T0 + 2 * H);
    const to = new Date(T0 + 3 * H);
    expect(sim.samples(inst(), from, to)).toEqual(sim.samples(inst(), from, to));
    expect(sim.logs(inst(), from, to, 500)).toEqual(sim.logs(inst(), from, to, 500));
    const other = sim.samples(inst({ simSeed: 99 }), from, to);
    expect(other.map((s) => s.utilizationPct)).not.toEqual(
      sim.samples(inst(), from, to).map((s) => s.utilizationPct),
    );
    expect(sim.logs(inst({ simSeed: 99 }), from, to, 500)).not.toEqual(sim.logs(inst(), from, to, 500));
  });

  it("splits a window without changing a sample (pure function of time, including the temperature lag)", () => {
    const a = new Date(T0 + H);
    const b = new Date(T0 + H + 37_000);
    const c = new Date(T0 + 2 * H);
    const whole = sim.samples(inst(), a, c);
    const parts = [...sim.samples(inst(), a, b), ...sim.samples(inst(), b, c)];
    const key = (s: { gpuIndex: number; at: Date }) => `${s.gpuIndex}:${s.at.getTime()}`;
    const sort = (xs: typeof whole) => [...xs].sort((x, y) => key(x).localeCompare(key(y)));
    expect(sort(parts)).toEqual(sort(whole));
  });

  it("samples every 10 s per GPU in (from, to] and never before the instance started", () => {
    const s = sim.samples(inst({ startedAt: new Date(T0 + 5_000) }), new Date(T0 - H), new Date(T0 + 60_000));
    expect(s.length).toBe(2 * 6); // ticks 10 s … 60 s for two GPUs
    expect(Math.min(...s.map((x) => x.at.getTime()))).toBe(T0 + 10_000);
    expect(s.every((x) => x.at.getTime() % 10_000 === 0)).toBe(true);
    expect(sim.samples(inst({ startedAt: null }), new Date(T0), new Date(T0 + H))).toEqual([]);
  });
});

describe("simulated provider: workload shapes", () => {
  it("keeps training GPUs busy (mean > 80 %) with evaluation dips", () => {
    const u = util(inst(), 1, 7);
    expect(mean(u)).toBeGreaterThan(80);
    expect(Math.min(...u)).toBeLessThan(50);
  });

  it("leaves notebooks idle most of the time (median < 10 %) with bursts", () => {
    const u = util(inst({ workload: "notebook", kind: "notebook", gpuCount: 1 }), 0, 24);
    expect(median(u)).toBeLessThan(10);
    expect(Math.max(...u)).toBeGreaterThan(60);
  });

  it("follows a daily cycle for inference: afternoon peak well above the night trough", () => {
    const i = inst({ workload: "inference", gpuCount: 1 });
    for (let day = 0; day < 3; day++) {
      const night = mean(util(i, day * 24 + 1, day * 24 + 5));
      const afternoon = mean(util(i, day * 24 + 13, day * 24 + 17));
      expect(afternoon - night).toBeGreaterThan(40);
    }
  });

  it("keeps power between idle and TDP (MIG slices within their share) and memory within the GPU", () => {
    for (const workload of ["training", "notebook", "inference"] as const) {
      for (const [slices, mem] of [
        [7, 80],
        [2, 20],
      ] as const) {
        const i = inst({ workload, slicesPerGpu: slices, gpuMemoryGib: mem, gpuCount: slices < 7 ? 1 : 2 });
        const max = (700 * slices) / 7;
        const s = sim.samples(i, new Date(T0), new Date(T0 + 12 * H));
        const power = s.map((x) => x.powerWatts);
        const memory = s.map((x) => x.memoryUsedGib);
        expect(Math.min(...power)).toBeGreaterThanOrEqual(max * IDLE_POWER_SHARE - 0.05);
        expect(Math.max(...power)).toBeLessThanOrEqual(max + 0.05);
        expect(Math.min(...memory)).toBeGreaterThan(0);
        expect(Math.max(...memory)).toBeLessThanOrEqual(mem);
      }
    }
  });

  it("lets temperature lag power: best correlation with power from tens of seconds earlier", () => {
    const s = sim
      .samples(inst({ workload: "notebook", gpuCount: 1 }), new Date(T0), new Date(T0 + 24 * H))
      .sort((a, b) => a.at.getTime() - b.at.getTime());
    const p = s.map((x) => x.powerWatts);
    const t = s.map((x) => x.temperatureC);
    const corr = (lag: number) => {
      const xs = p.slice(0, p.length - lag);
      const ys = t.slice(lag);
      const mx = mean(xs);
      const my = mean(ys);
      let num = 0;
      let dx = 0;
      let dy = 0;
      for (let k = 0; k < xs.length; k++) {
        const a = (xs[k] as number) - mx;
        const b = (ys[k] as number) - my;
        num += a * b;
        dx += a * a;
        dy += b * b;
      }
      return num / Math.sqrt(dx * dy);
    };
    const lags = [0, 1, 2, 3, 4, 5, 6, 8];
    const best = lags.reduce((a, b) => (corr(b) > corr(a) ? b : a));
    expect(best).toBeGreaterThan(0);
  });
});

describe("simulated provider: logs", () => {
  it("starts with the image pull and CUDA start-up, then training steps with a falling loss", () => {
    const i = inst();
    const head = sim.logs(i, new Date(T0 - 1), new Date(T0 + 20_000), 50).map((l) => l.text);
    expect(head[0]).toMatch(/^Pulling image /);
    expect(head.some((t) => /CUDA .* 2 device\(s\) visible/.test(t))).toBe(true);
    const steps = sim
      .logs(i, new Date(T0), new Date(T0 + 10 * H), 100_000)
      .map((l) => /loss (\d+\.\d+)/.exec(l.text)?.[1])
      .filter((x): x is string => !!x)
      .map(Number);
    expect(steps.length).toBeGreaterThan(1000);
    expect(mean(steps.slice(-50))).toBeLessThan(mean(steps.slice(0, 50)) - 1);
  });

  it("returns the last `limit` lines of the window, oldest first", () => {
    const i = inst({ workload: "inference" });
    const to = new Date(T0 + 14 * H);
    const all = sim.logs(i, new Date(T0 + 13 * H), to, 10_000);
    const tail = sim.logs(i, new Date(T0 + 13 * H), to, 25);
    expect(tail).toEqual(all.slice(-25));
    expect(tail.every((l, k) => k === 0 || l.at >= (tail[k - 1] as typeof l).at)).toBe(true);
    expect(all.some((l) => l.text.includes("POST /v1/completions"))).toBe(true);
  });
});

describe("simulated provider: lifecycle timing", () => {
  afterEach(() => {
    delete process.env.FORJA_SIM_SPEED;
    delete process.env.FORJA_SIM_FAILURE_RATE;
  });

  it("provisions notebooks in 20–90 s, 8-GPU nodes slower, fails about 3 % of attempts with a reason", () => {
    const nb = inst({ kind: "notebook", workload: "notebook", gpuCount: 1 });
    const big = inst({ gpuCount: 8 });
    let failed = 0;
    const nbDelays: number[] = [];
    const bigDelays: number[] = [];
    for (let k = 0; k < 4000; k++) {
      const now = new Date(T0 + k * 1000);
      const plan = sim.planProvisioning({ ...nb, simSeed: k }, now);
      if (plan.outcome === "failed") {
        failed++;
        expect(plan.reason.length).toBeGreaterThan(10);
      } else nbDelays.push((plan.at.getTime() - now.getTime()) / 1000);
      const p8 = sim.planProvisioning({ ...big, simSeed: k }, now);
      if (p8.outcome === "ready") bigDelays.push((p8.at.getTime() - now.getTime()) / 1000);
    }
    expect(Math.min(...nbDelays)).toBeGreaterThanOrEqual(20);
    expect(Math.max(...nbDelays)).toBeLessThanOrEqual(90);
    expect(mean(bigDelays)).toBeGreaterThan(mean(nbDelays) * 1.8);
    expect(failed / 4000).toBeGreaterThan(0.015);
    expect(failed / 4000).toBeLessThan(0.05);
    expect(sim.planProvisioning(nb, new Date(T0))).toEqual(sim.planProvisioning(nb, new Date(T0)));
  });

  it("fails the share FORJA_SIM_FAILURE_RATE says (0: none, 1: all), the default for a value out of range", () => {
    const failures = () => {
      let n = 0;
      for (let k = 0; k < 2000; k++)
        if (sim.planProvisioning(inst({ simSeed: k }), new Date(T0 + k * 1000)).outcome === "failed") n++;
      return n;
    };
    const byDefault = failures();
    expect(byDefault).toBeGreaterThan(0);
    process.env.FORJA_SIM_FAILURE_RATE = "0";
    expect(failures()).toBe(0);
    process.env.FORJA_SIM_FAILURE_RATE = "1";
    expect(failures()).toBe(2000);
    process.env.FORJA_SIM_FAILURE_RATE = "0.5";
    expect(failures()).toBeGreaterThan(800);
    process.env.FORJA_SIM_FAILURE_RATE = "7";
    expect(failures()).toBe(byDefault);
  });

  it("divides delays by FORJA_SIM_SPEED", () => {
    const i = inst();
    const now = new Date(T0);
    const slow = sim.planProvisioning(i, now).at.getTime() - T0;
    const stop = sim.stopDelayMs(i);
    process.env.FORJA_SIM_SPEED = "20";
    expect(sim.planProvisioning(i, now).at.getTime() - T0).toBeCloseTo(slow / 20, 0);
    expect(sim.stopDelayMs(i)).toBeCloseTo(stop / 20, 6);
    expect(sim.terminateDelayMs(i)).toBeLessThan(1000);
  });

  it("interrupts spot capacity rarely (Poisson, ~0.02/h) and never on-demand", () => {
    const spot = inst({ pricingModel: "spot" });
    let count = 0;
    let from = T0;
    const end = T0 + 20_000 * H;
    for (;;) {
      const at = sim.spotInterruptionIn(spot, new Date(from), new Date(end));
      if (!at) break;
      expect(at.getTime()).toBeGreaterThan(from);
      count++;
      from = at.getTime();
    }
    expect(count / 20_000).toBeGreaterThan(0.012);
    expect(count / 20_000).toBeLessThan(0.03);
    expect(sim.spotInterruptionIn(inst(), new Date(T0), new Date(end))).toBeNull();
  });

  it("gives notebooks a stable URL with a token and containers an endpoint", () => {
    const nb = sim.connectionFor(inst({ kind: "notebook" }));
    expect(nb.url).toMatch(/^https:\/\/nb-[0-9a-f]{12}\.sim\.forja\.local\/lab\?token=[0-9a-f]{32}$/);
    expect(nb).toEqual(sim.connectionFor(inst({ kind: "notebook" })));
    expect(sim.connectionFor(inst()).endpoint).toMatch(/^https:\/\/ct-/);
  });
});

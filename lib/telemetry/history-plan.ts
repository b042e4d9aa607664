import { type LaunchSpecInput, mulberry32 } from "@/lib/provisioning";

/**
 * What the people of the demo organization did over the history window, as a seeded, pure plan of user
 * actions. The engine (launch, scheduler, reconciler, stop, start, terminate) turns it into real history:
 * queue waits, placements, failures and spot interruptions come from the engine and the simulated provider,
 * not from this plan.
 */
export type PlannedAction =
  | { type: "launch"; at: number; key: string; spec: LaunchSpecInput; simSeed: number }
  /** Stop if running; cancel if it is still waiting in the queue. */
  | { type: "stop"; at: number; key: string }
  /** Start again if stopped or preempted. */
  | { type: "start"; at: number; key: string }
  /** Terminate whatever state it is in (a queued one is cancelled). */
  | { type: "terminate"; at: number; key: string };

export type HistoryProfile = "demo" | "small";

const H = 3_600_000;
const DAY = 24 * H;

type Pool = {
  instanceType: string;
  region: string;
  pricingModel?: "on_demand" | "spot";
  autoRecover?: boolean;
};

// Madrid has six whole H100s (two more are carved into MIG slices), so two 4-GPU training jobs cannot run
// there at once: the second one waits in the queue, which is what makes the queue-time charts real.
const TRAINING_POOLS: Array<Pool & { weight: number }> = [
  { instanceType: "h100.4x", region: "eu-es-mad1", weight: 3 },
  { instanceType: "a100-80gb.8x", region: "eu-de-fra1", weight: 2 },
  { instanceType: "h100.8x", region: "eu-de-fra1", weight: 2 },
  { instanceType: "a100-40gb.4x", region: "eu-fi-hel1", pricingModel: "spot", autoRecover: true, weight: 2 },
];
const AD_HOC_NOTEBOOKS: Pool[] = [
  { instanceType: "a100-80gb.mig-2g.20gb", region: "eu-es-mad1" },
  { instanceType: "l40s.1x", region: "eu-es-mad1" },
  { instanceType: "h100.mig-1g.10gb", region: "eu-es-mad1" },
  { instanceType: "l4.1x", region: "eu-fi-hel1", pricingModel: "spot" },
];
const PERSONAL_NOTEBOOKS: Array<Pool & { name: string; image: string }> = [
  {
    name: "ada-exploration",
    instanceType: "a100-80gb.1x",
    region: "eu-es-mad1",
    image: "pytorch-2.5-cuda12.4",
  },
  {
    name: "max-prototyping",
    instanceType: "h100.mig-1g.10gb",
    region: "eu-es-mad1",
    image: "jax-0.4.35-cuda12",
  },
  { name: "vera-eval", instanceType: "l4.1x", region: "eu-fi-hel1", image: "tensorflow-2.17-cuda12.3" },
];
const MODELS = ["llama-3-8b", "mistral-7b", "qwen2-7b", "gemma-2-9b", "phi-3-mini"];

export function planHistory(opts: {
  now: Date;
  days: number;
  seed: number;
  profile: HistoryProfile;
}): PlannedAction[] {
  const rnd = mulberry32(opts.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const between = (lo: number, hi: number) => lo + rnd() * (hi - lo);
  const now = opts.now.getTime();
  const start = now - opts.days * DAY;
  const firstMidnight = Math.ceil(start / DAY) * DAY;
  const out: PlannedAction[] = [];
  let n = 0;
  const key = (name: string) => `${name}#${n++}`;
  const launch = (at: number, name: string, spec: Omit<LaunchSpecInput, "name">) => {
    const k = key(name);
    out.push({
      type: "launch",
      at,
      key: k,
      spec: { ...spec, name } as LaunchSpecInput,
      simSeed: Math.floor(rnd() * 2 ** 31),
    });
    return k;
  };
  const container = (image = "pytorch-2.5-cuda12.4") => ({ kind: "container" as const, image });

  // A production inference service up for the whole window, plus, on longer histories, a second one that was
  // stopped for a day and a canary that was torn down.
  launch(start + 20 * 60_000, "chat-api", {
    ...container(),
    project: "inference-prod",
    region: "eu-de-fra1",
    instanceType: opts.profile === "small" ? "l4.1x" : "l40s.2x",
    workload: "inference",
    exposedPort: 8000,
  });
  if (opts.days >= 7) {
    const emb = launch(start + 2 * DAY + 3 * H, "embeddings", {
      ...container(),
      project: "inference-prod",
      region: "eu-es-mad1",
      instanceType: "l4.1x",
      workload: "inference",
      exposedPort: 8080,
    });
    out.push({ type: "stop", at: start + opts.days * 0.4 * DAY, key: emb });
    out.push({ type: "start", at: start + opts.days * 0.4 * DAY + 26 * H, key: emb });
    const canary = launch(start + opts.days * 0.6 * DAY, "reranker-canary", {
      ...container(),
      project: "staging",
      region: "eu-es-mad1",
      instanceType: "l4.1x",
      workload: "inference",
    });
    out.push({ type: "terminate", at: start + opts.days * 0.75 * DAY, key: canary });
  }

  // Training jobs: a hard max runtime stops them (the reconciler does), the owner terminates them next day.
  const trainings = opts.profile === "small" ? 0 : Math.round(opts.days * 0.5);
  const totalWeight = TRAINING_POOLS.reduce((a, p) => a + p.weight, 0);
  for (let j = 0; j < trainings; j++) {
    const pool = weighted(TRAINING_POOLS, rnd() * totalWeight);
    const at = between(start + 6 * H, now - 40 * H);
    const runtimeMin = Math.round(between(3, 20) * 60);
    const k = launch(at, `ft-${pick(MODELS)}-${String(j + 1).padStart(2, "0")}`, {
      ...container(),
      project: "research",
      region: pool.region,
      instanceType: pool.instanceType,
      pricingModel: pool.pricingModel ?? "on_demand",
      autoRecover: pool.autoRecover ?? false,
      workload: "training",
      maxRuntimeMinutes: runtimeMin,
      command: "torchrun",
      args: ["--nproc-per-node", pool.instanceType.split(".")[1]?.replace("x", "") ?? "1", "train.py"],
    });
    out.push({ type: "terminate", at: at + runtimeMin * 60_000 + between(8, 30) * H, key: k });
  }

  // Hyper-parameter sweeps: three 4-GPU jobs at once on Madrid's six whole H100s, so two of them queue.
  const sweeps = opts.profile === "small" ? 0 : Math.floor(opts.days / 10);
  for (let j = 0; j < sweeps; j++) {
    const at = start + ((j + 0.5) / sweeps) * (opts.days - 2) * DAY;
    for (let k = 0; k < 3; k++) {
      const runtimeMin = Math.round(between(2, 6) * 60);
      const id = launch(at + k * 60_000, `sweep-${j + 1}-lr${k + 1}`, {
        ...container(),
        project: "research",
        region: "eu-es-mad1",
        instanceType: "h100.4x",
        workload: "training",
        maxRuntimeMinutes: runtimeMin,
        command: "python",
        args: ["sweep.py", "--trial", String(k + 1)],
      });
      out.push({ type: "terminate", at: at + 30 * H, key: id });
    }
  }

  // Working days: personal notebooks started in the morning and stopped in the evening, plus ad-hoc ones.
  for (let day = firstMidnight; day < now; day += DAY) {
    const weekday = new Date(day).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const isToday = day + DAY > now;
    for (const nb of PERSONAL_NOTEBOOKS.slice(0, opts.profile === "small" ? 1 : 3)) {
      if (!isToday && rnd() > 0.8) continue;
      const on = day + between(7.5, 10) * H;
      const off = day + between(16, 19.5) * H;
      if (on >= now) continue;
      out.push({ type: "start", at: on, key: `nb:${nb.name}` });
      if (off < now - 10 * 60_000) out.push({ type: "stop", at: off, key: `nb:${nb.name}` });
    }
    if (opts.profile === "small") continue;
    for (let k = 0; k < 2; k++) {
      if (rnd() > 0.6) continue;
      const pool = pick(AD_HOC_NOTEBOOKS);
      const at = day + between(9, 15) * H;
      const end = at + between(1, 4) * H;
      if (end > now - 30 * 60_000) continue;
      const id = launch(at, `scratch-${new Date(day).toISOString().slice(5, 10)}-${k + 1}`, {
        kind: "notebook",
        project: "research",
        region: pool.region,
        instanceType: pool.instanceType,
        pricingModel: pool.pricingModel ?? "on_demand",
        image: "pytorch-2.4-cuda12.1",
        workload: "notebook",
      });
      out.push({ type: rnd() < 0.5 ? "terminate" : "stop", at: end, key: id });
    }
  }
  resolvePersonalNotebooks(out, rnd);

  // The scene the live demo opens on: one 4-GPU job running in Madrid and another queued behind it.
  if (opts.profile === "demo") {
    for (const [name, ago] of [
      ["ft-llama-3-70b-lora", 5 * H],
      ["ft-mistral-7b-dpo", 2 * H],
    ] as const) {
      launch(now - ago, name, {
        ...container(),
        project: "research",
        region: "eu-es-mad1",
        instanceType: "h100.4x",
        workload: "training",
        maxRuntimeMinutes: 16 * 60,
      });
    }
  }
  return out.filter((a) => a.at > start && a.at < now).sort((a, b) => a.at - b.at);
}

function weighted<T extends { weight: number }>(xs: readonly T[], r: number): T {
  let rest = r;
  for (const x of xs) {
    rest -= x.weight;
    if (rest < 0) return x;
  }
  return xs[xs.length - 1] as T;
}

/** The first "start" of a personal notebook is its launch; later ones restart the same instance. */
function resolvePersonalNotebooks(out: PlannedAction[], rnd: () => number) {
  const seen = new Set<string>();
  for (const [i, a] of [...out.entries()].sort(([, x], [, y]) => x.at - y.at)) {
    if (!a.key.startsWith("nb:")) continue;
    const name = a.key.slice(3);
    const nb = PERSONAL_NOTEBOOKS.find((p) => p.name === name) as (typeof PERSONAL_NOTEBOOKS)[number];
    if (a.type === "start" && !seen.has(name)) {
      seen.add(name);
      out[i] = {
        type: "launch",
        at: a.at,
        key: a.key,
        simSeed: Math.floor(rnd() * 2 ** 31),
        spec: {
          kind: "notebook",
          name,
          project: "research",
          region: nb.region,
          instanceType: nb.instanceType,
          pricingModel: nb.pricingModel ?? "on_demand",
          image: nb.image,
          workload: "notebook",
        },
      };
    }
  }
  // A stop before the notebook ever launched has nothing to act on.
  for (let i = out.length - 1; i >= 0; i--) {
    const a = out[i] as PlannedAction;
    if (a.key.startsWith("nb:") && a.type !== "launch" && !seen.has(a.key.slice(3))) out.splice(i, 1);
  }
}

/**
 * Request and response examples for the most used operations (launch, list instances) and for `forja apply`
 * documents. openapi.test.ts validates every one against the schema it illustrates, so they cannot drift.
 */

const at = "2030-01-06T09:00:00.000Z";

/** POST /orgs/{org}/instances bodies. */
export const launchExamples = {
  notebook: {
    summary: "A Jupyter notebook on one H100, stopped after an idle hour",
    value: {
      kind: "notebook",
      name: "explore-llama",
      project: "default",
      region: "eu-fi-hel1",
      instanceType: "h100.1x",
      image: "pytorch-2.5-cuda12.4",
      autoShutdown: { idle: { utilizationBelowPct: 5, minutes: 60 } },
    },
  },
  training: {
    summary: "A training container on 8 spot H100s, requeued if reclaimed, at most 12 hours",
    value: {
      kind: "container",
      name: "train-7b",
      project: "research",
      region: "eu-fi-hel1",
      instanceType: "h100.8x",
      pricingModel: "spot",
      image: "pytorch-2.5-cuda12.4",
      command: "torchrun",
      args: ["--nproc-per-node=8", "train.py", "--config", "7b.yaml"],
      env: { WANDB_PROJECT: "train-7b" },
      diskGib: 500,
      maxRuntimeMinutes: 720,
      autoRecover: true,
      workload: "training",
    },
  },
};

/** GET /orgs/{org}/instances: one page. */
export const instanceListExample = {
  summary: "One running notebook; no more pages",
  value: {
    items: [
      {
        id: "0b9f3c1e-5d2a-4e8b-9c71-2f4a6d8e1b30",
        name: "explore-llama",
        kind: "notebook",
        state: "running",
        stateReason: null,
        borrowed: false,
        queueReason: null,
        regionCode: "eu-fi-hel1",
        instanceTypeId: "h100.1x",
        gpuModelName: "NVIDIA H100 80GB",
        gpuCount: 1,
        migProfile: null,
        pricingModel: "on_demand",
        projectSlug: "default",
        projectName: "Default",
        createdAt: "2030-01-06T08:12:00.000Z",
        actions: ["stop", "terminate"],
        costUsd: 2.04,
      },
    ],
    total: 1,
    page: 1,
    pageSize: 50,
    now: at,
    next: null,
  },
};

/** Documents of a `forja apply -f` file (JSON Schema `examples`, as YAML would be after parsing). */
export const applyExamples = [
  launchExamples.notebook.value,
  {
    kind: "budget",
    name: "research-monthly",
    project: "research",
    amountUsd: 5000,
    thresholds: [
      { kind: "actual", pct: 80 },
      { kind: "forecast", pct: 100 },
    ],
    actionAt100: "notify",
  },
];

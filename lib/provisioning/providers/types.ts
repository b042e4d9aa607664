/**
 * The provider boundary: turns a placed instance into a running workload and reports on it. The lifecycle
 * (lib/provisioning) owns states and transitions; a provider only answers questions about timing, connection
 * details, metrics and logs, so the same engine runs with the simulated fleet or Kubernetes.
 */
export type ProviderInstance = {
  id: string;
  orgId: string;
  name: string;
  kind: "notebook" | "container";
  workload: "training" | "notebook" | "inference";
  regionCode: string;
  gpuModelId: string;
  gpuCount: number;
  /** 7 = whole GPU; fewer = a MIG slice. */
  slicesPerGpu: number;
  /** GPU memory available to the instance per GPU (GiB), for memory metrics. */
  gpuMemoryGib: number;
  /** Board power limit (W) of the GPU model, for power metrics. */
  tdpWatts: number;
  pricingModel: "on_demand" | "spot" | "reserved_1m" | "reserved_1y";
  imageId: string;
  nodeId: string | null;
  simSeed: number;
  startedAt: Date | null;
  /** The engine's id of the workload (Slurm job id, pod name); null before it is submitted or when Forja places. */
  providerRef?: string | null;
};

/** When the workload will be up, or that it will fail, decided when the instance is placed. */
export type ProvisionPlan = { outcome: "ready"; at: Date } | { outcome: "failed"; at: Date; reason: string };

export type MetricSample = {
  gpuIndex: number;
  at: Date;
  utilizationPct: number;
  memoryUsedGib: number;
  powerWatts: number;
  temperatureC: number;
};

export type LogLine = { at: Date; stream: "stdout" | "stderr"; text: string };

export interface Provider {
  readonly name: string;
  /**
   * Who places and drives the workload. "forja" (the default when absent): Forja's scheduler places on the
   * nodes table and the deadline reconciler moves provisioning/stopping/terminating/preempting on. "cluster":
   * the engine's own scheduler places (Kubernetes, Slurm); Forja's scheduler and deadline reconciler leave the
   * region alone and the engine's sync pass (run by the worker) applies the transitions it observes.
   */
  readonly placement?: "forja" | "cluster";
  /** Called in the placement transaction. */
  planProvisioning(inst: ProviderInstance, now: Date): ProvisionPlan;
  /** How long a graceful stop takes (stopping → stopped) and a termination (terminating → terminated). */
  stopDelayMs(inst: ProviderInstance): number;
  terminateDelayMs(inst: ProviderInstance): number;
  /** Connection details once running (notebook URL + token; container endpoint). */
  connectionFor(inst: ProviderInstance): Record<string, string>;
  /** Samples every 10 s for a running instance in the window (from, to]. Deterministic for a seed. */
  samples(inst: ProviderInstance, from: Date, to: Date): MetricSample[];
  /** Container logs in the window (from, to]. Deterministic for a seed. */
  logs(inst: ProviderInstance, from: Date, to: Date, limit: number): LogLine[];
  /** For spot instances: the time in (from, to] when the capacity is interrupted by the provider, or null. */
  spotInterruptionIn(inst: ProviderInstance, from: Date, to: Date): Date | null;
  /**
   * Engines that must be asked over the network implement these instead of samples/logs (which then return
   * nothing): the latest samples per instance id (e.g. one DCGM exporter scrape for many instances), and the
   * log lines of one instance in (from, to], the last `limit` of them.
   */
  fetchSamples?(insts: ProviderInstance[], now: Date): Promise<Map<string, MetricSample[]>>;
  fetchLogs?(inst: ProviderInstance, from: Date, to: Date, limit: number): Promise<LogLine[]>;
  /**
   * A cluster-placed provider may hand its region to the shared engine pass (engine-sync.ts) instead of writing
   * its own: it then only answers these questions, and Forja mirrors nodes, submits, follows and cancels.
   */
  readonly engine?: Engine;
}

/** A node as the engine reports it, mirrored into Forja's nodes/node_gpus rows of the region. */
export type EngineNode = {
  /** Unique across regions (e.g. "<node>.<cluster>"). */
  name: string;
  gpuModelId: string;
  /** Physical GPUs; a GPU in MIG mode counts once. */
  gpuCount: number;
  /** Indexes of the GPUs in MIG mode. */
  migGpuIndexes: number[];
  vcpus: number;
  ramGib: number;
  /** idle/mixed/allocated → active; drain/draining → draining; down/fail/not responding → down. */
  status: "active" | "draining" | "down";
  /** The engine's own words for the state and why (e.g. "drained", "maintenance"), for the audit log. */
  engineState: string;
  engineReason: string | null;
};

/** Where an engine's workload is, reduced to what the lifecycle needs (engine-transitions.ts maps it). */
export type WorkloadPhase =
  | "pending"
  | "running"
  | "completed"
  | "failed"
  | "timeout"
  | "preempted"
  | "node_failed"
  | "cancelled"
  | "gone";

export type WorkloadStatus = {
  ref: string;
  phase: WorkloadPhase;
  /** The engine's reason (Slurm's pending reason, an exit code). */
  reason: string | null;
  /** EngineNode.name of the node it runs on, and the physical GPU indexes it holds there. */
  nodeName: string | null;
  gpuIndexes: number[];
  /** For a pending workload: the engine's expected start and queue position (1 = next). */
  expectedStart: Date | null;
  queuePosition: number | null;
  /**
   * Connection details once the workload reported them (notebook URL + token; `endpoint`, the base URL of a
   * workload with an exposed port); null = not yet.
   */
  connection: Record<string, string> | null;
  /**
   * When the engine started the workload (Slurm's StartTime, a pod's startTime), if it says. The run began
   * then, not when a later worker pass noticed it: its first log lines are stamped from that moment.
   */
  startedAt?: Date | null;
};

/** What the shared engine pass needs from a cluster (Slurm implements it; see docs/adr/0007). */
export interface Engine {
  /** Forja's node rows of this engine are "<node>.<clusterName>"; only those are marked down when they vanish. */
  readonly clusterName: string;
  /** True when the engine itself ends a workload at its max runtime (Slurm's time limit): Forja's pass stands aside. */
  readonly enforcesMaxRuntime: boolean;
  discoverNodes(regionCode: string): Promise<EngineNode[]>;
  /** Submit an admitted instance; returns the engine's id of the workload. Throws the engine's refusal. */
  submit(work: EngineWorkload): Promise<string>;
  /** The status of these workloads of the region (a ref missing from the map = gone). */
  observe(regionCode: string, refs: string[]): Promise<Map<string, WorkloadStatus>>;
  /** End a workload (idempotent: an ended one is fine). */
  cancel(ref: string): Promise<void>;
  /** An operator's drain / fail / return to service of a node, applied on the cluster. */
  setNodeStatus(nodeName: string, status: "active" | "draining" | "down", reason: string): Promise<void>;
}

/** What an engine is told to run: the instance plus the launch spec parts that shape the workload. */
export type EngineWorkload = ProviderInstance & {
  orgSlug: string;
  imageReference: string;
  command: string | null;
  args: string[] | null;
  env: Record<string, string> | null;
  maxRuntimeMinutes: number | null;
  /** The MIG profile of the instance type (e.g. "1g.10gb"), null for whole GPUs. */
  migProfile: string | null;
  /**
   * The port the workload serves (a service replica, an inference container), null for none. An engine that
   * shares hosts between workloads may assign its own port per workload (Slurm: PORT / FORJA_PORT) and report
   * the address it chose as the connection's `endpoint`.
   */
  exposedPort?: number | null;
};

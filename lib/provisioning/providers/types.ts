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
}

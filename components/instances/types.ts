/**
 * What the instance views receive: plain JSON (dates as ISO strings), so a server component's first render
 * and the route handlers that React Query polls hand the client exactly the same shape.
 */
export const INSTANCE_ACTIONS = ["stop", "start", "terminate", "cancel"] as const;
export type InstanceAction = (typeof INSTANCE_ACTIONS)[number];

export type InstanceStateName =
  | "requested"
  | "queued"
  | "provisioning"
  | "running"
  | "stopping"
  | "stopped"
  | "preempting"
  | "preempted"
  | "terminating"
  | "terminated"
  | "rejected"
  | "cancelled"
  | "failed";

export type InstanceRowView = {
  id: string;
  name: string;
  kind: "notebook" | "container";
  state: InstanceStateName;
  stateReason: string | null;
  regionCode: string;
  instanceTypeId: string;
  gpuModelName: string;
  gpuCount: number;
  /** MIG profile name for a slice of one GPU, else null. */
  migProfile: string | null;
  pricingModel: "on_demand" | "spot" | "reserved_1m" | "reserved_1y";
  projectSlug: string;
  projectName: string;
  createdAt: string;
  /** Actions legal in the current state (empty for viewers). */
  actions: InstanceAction[];
  /** Estimated cost so far in USD (hours run × catalog price), null when no price applies. */
  costUsd: number | null;
};

export type InstanceListView = {
  items: InstanceRowView[];
  total: number;
  page: number;
  pageSize: number;
  /** Server time of the answer: relative times are computed against it, not the browser's clock. */
  now: string;
};

export type InstanceEventView = {
  id: number;
  from: InstanceStateName | null;
  to: InstanceStateName;
  reason: string;
  actorKind: string;
  actorEmail: string | null;
  at: string;
};

export type WaitMethod = "capacity" | "runtime" | "history" | "unknown" | "no_capacity";

/** A launch that would start sooner than the queued one, with its hourly price. */
export type QueueAlternativeView = {
  /** region: same offering elsewhere; spot: the spot price; gpu_model: a GPU with at least the memory; mig: a slice. */
  kind: "region" | "spot" | "gpu_model" | "mig";
  regionCode: string;
  instanceTypeId: string;
  gpuModelName: string;
  gpuCount: number;
  migProfile: string | null;
  gpuMemoryGib: number;
  pricingModel: "on_demand" | "spot" | "reserved_1m" | "reserved_1y";
  usdPerHour: number;
};

export type QueueView = {
  /** 1 = next in its queue. */
  position: number;
  /** Estimated seconds until it starts; null when the fleet cannot say. */
  etaSeconds: number | null;
  /** How the ETA was estimated, so the page can say how far to trust it. */
  method: WaitMethod;
  alternatives: QueueAlternativeView[];
};

export type CostView = {
  /** Hours the instance has held GPUs so far. */
  hours: number;
  usdPerHour: number | null;
  usd: number | null;
};

export type InstanceDetailView = InstanceRowView & {
  imageId: string;
  nodeName: string | null;
  diskGib: number;
  exposedPort: number | null;
  connection: Record<string, string> | null;
  startedAt: string | null;
  events: InstanceEventView[];
  queue: QueueView | null;
  cost: CostView | null;
  now: string;
};

/** What "stop selected" answers: the ids stopped, and each failure with its reason. */
export type BulkStopResult = {
  stopped: string[];
  failed: Array<{ id: string; message: string }>;
};

export type ActionOutcome<T = undefined> =
  | { ok: true; data?: T; message?: string }
  | { ok: false; message: string; fieldErrors?: Record<string, string[]> };

export type PricingChoice = "on_demand" | "spot" | "reserved";

/** The launch form's live preview (route handler launch-preview). */
export type LaunchPreviewView = {
  instanceTypeId: string;
  regionCode: string;
  gpuModelName: string;
  gpusNeeded: number;
  prices: Record<"on_demand" | "spot" | "reserved_1m" | "reserved_1y", number | null>;
  allowed: boolean;
  quota: { limitGpus: number; usedGpus: number; leftGpus: number; fromDefault: boolean };
  expectedWait: { etaSeconds: number | null; method: WaitMethod; ahead: number } | null;
};

/**
 * lib/provisioning: the instance lifecycle, launch with quota and policy checks, placement on the fleet, the
 * reconciler, queue insight and the provider registry. Other domains and the app import only from here.
 */
export type { Alternative } from "./alternatives";
export { activateNode, drainNode, failNode } from "./fleet";
/** The planner and the fleet state it reads, for the scheduler bench (planner alone, scan vs index). */
export { loadRegionHolders, loadRegionNodes } from "./fleet-state";
export { IMAGE_CATALOG, type ImageSummary, listImages, seedImages } from "./images";
export { type CapacityViolation, checkCapacityInvariants } from "./invariant";
export { batching as launchBatching, type LaunchResult, launch, launchGroups } from "./launch";
export { applyTransition, applyTransitions, type Transition } from "./lifecycle";
export { instanceManifests, instanceManifestsYaml, type ManifestExport } from "./manifests";
export {
  type AddedNode,
  type AddNodeInput,
  addNode,
  addNodeSchema,
  NODE_FIELD_MESSAGES,
  nodeActionSchema,
} from "./node-admin";
export { type MigLayout, migLayoutSchema, setNodeMigLayout } from "./node-mig";
export { currentPrice, type PricingModelDb } from "./offerings";
export { type Decisions, type PRequest, planPlacements } from "./placement";
export { policyStop } from "./policy-stop";
export { preemptInstance } from "./preempt";
export {
  attachConfiguredEngines,
  clusterPlacedRegions,
  createFixedProvider,
  getProvider,
  type LogLine,
  type MetricSample,
  type Provider,
  type ProviderInstance,
  setProvider,
  setRegionProvider,
  syncConfiguredEngines,
} from "./providers";
// The simulator's seeded randomness, reused by lib/telemetry's demo history so both draw the same way.
export { hashString, mulberry32 } from "./providers/simulated/prng";
export {
  createSlurmProvider,
  NVIDIA_SMI_ARGS,
  parseNvidiaSmi,
  type SlurmConfig,
  slurmConfigSchema,
  toSamples as nvidiaSmiSamples,
} from "./providers/slurm";
export {
  getInstance,
  type InstanceDetail,
  type InstanceList,
  type InstanceListItem,
  listInstances,
} from "./queries";
export {
  acceleratorOfVendor,
  type CostEstimate,
  estimateInstanceCosts,
  listLaunchImages,
} from "./queries-ui";
export { type EtaMethod, expectedWait, type QueueInsight, queueInsight, type WaitEstimate } from "./queue";
export {
  DEFAULT_QUOTA_GPUS,
  gpusOfSlices,
  type QuotaLeft,
  quotaLeft,
  SEEDED_QUOTA_GPUS,
  seedDefaultQuotas,
} from "./quota";
export { type ReconcileResult, reconcileInstances } from "./reconcile";
export {
  DEFAULT_SPOT_NOTICE_SECONDS,
  placeQueuedInstances,
  type SchedulerResult,
  SPOT_NOTICE_MS,
  spotNoticeMsFrom,
} from "./scheduler";
export {
  DEFAULT_PRIORITY,
  DISK_GIB_DEFAULT,
  DISK_GIB_MAX,
  DISK_GIB_MIN,
  type LaunchSpec,
  type LaunchSpecInput,
  type ListInstancesFilter,
  launchSpecSchema,
  listInstancesSchema,
  PRIORITY_MAX,
  PRIORITY_MIN,
} from "./schemas";
export { start } from "./start";
export {
  CAPACITY_STATES,
  canTransition,
  INSTANCE_STATES,
  type InstanceState,
  QUOTA_STATES,
  TERMINAL_STATES,
  TRANSITIONS,
} from "./states";
export { stop, stopForPolicy } from "./stop";
export {
  DEFAULT_SUSPEND_NOTICE_MINUTES,
  reactivateOrganization,
  reactivateSchema,
  SUSPEND_FIELD_MESSAGES,
  type SuspendResult,
  suspendOrganization,
  suspendSchema,
} from "./suspend";
export { cancel, terminate } from "./terminate";
export type { Instance, InstanceEvent } from "./types";
export * from "./views";

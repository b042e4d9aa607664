/**
 * lib/services: inference services — a service is replicas (instances admitted like any other) of a model
 * server behind Forja's gateway, sized by an autoscaler from the gateway's telemetry. docs/adr/0012.
 */
export { serviceAuthSchema, serviceAuthViewSchema, setServiceAuth } from "./auth";
export { type AutoscaleResult, autoscaleServices } from "./autoscaler";
export { type CreateServiceResult, createService } from "./create";
export {
  decideScale,
  PANIC_WINDOW_S,
  type ScalingDecision,
  type ScalingInput,
  STABLE_WINDOW_S,
} from "./decide";
export { DEMO_SERVICE, demoRps, seedDemoService } from "./demo-seed";
export { SERVICE_FIELD_MESSAGES } from "./field-messages";
export { type Gateway, type GatewayOptions, startGateway } from "./gateway";
export { LATENCY_BUCKETS_MS, quantile } from "./histogram";
export { deleteService, loadOrgService, updateServiceScaling } from "./manage";
export { type ModelServer, modelServerDefaults, startModelServer } from "./model-server";
export {
  getService,
  listServices,
  SERVICE_RANGES,
  type ServiceDetail,
  type ServiceListItem,
  type ServiceRange,
  type ServiceStats,
  serviceStats,
} from "./queries";
export { createReplicaHost, type ReplicaHost } from "./replica-host";
export {
  type ScalingUpdate,
  type ServiceSpec,
  type ServiceSpecInput,
  scalingUpdateSchema,
  serviceSpecSchema,
} from "./schemas";
export type { ServiceSeriesPoint } from "./series";
export type { Service, ServiceReplica } from "./types";
export {
  type ServiceView,
  serviceCreatedViewSchema,
  serviceDetailViewSchema,
  serviceEventViewSchema,
  serviceListItemViewSchema,
  serviceStatsViewSchema,
  serviceView,
  serviceViewSchema,
} from "./views";

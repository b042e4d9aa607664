/** The platform operator's read models. Every function refuses anyone but an operator (requireOperator). */
export { exportPlatformAuditCsv, listPlatformAuditLog, type PlatformAuditFilters } from "@/lib/audit";
export type { Paged } from "@/lib/core";
export { type FleetJurisdiction, type FleetModelRow, type FleetRegion, getFleet } from "./fleet";
export {
  getNode,
  listNodes,
  type NodeDetail,
  type NodeFilters,
  type NodeGpu,
  type NodeInstance,
  type NodeRow,
  nodeListSchema,
  nodeRowSchema,
} from "./nodes";
export {
  getOutboxMessage,
  listOutboxMessages,
  OUTBOX_STATUSES,
  type OutboxFilters,
  type OutboxMessage,
  type OutboxRow,
  type OutboxStatus,
} from "./outbox";
export { getPlatformOverview, type PlatformOverview } from "./overview";
export { getTenant, type TenantDetail } from "./tenant";
export { listTenants, TENANTS_PAGE_SIZE, type TenantFilters, type TenantRow } from "./tenants";

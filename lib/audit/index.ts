export {
  AUDIT_PAGE_SIZE,
  type AuditFilters,
  type AuditRow,
  listAuditLog,
  listPlatformAuditLog,
  type PlatformAuditFilters,
} from "./queries";
export { type AuditEntry, writeAudit } from "./write";

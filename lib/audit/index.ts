export {
  AUDIT_CSV_COLUMNS,
  AUDIT_PAGE_SIZE,
  type AuditFilters,
  type AuditRow,
  exportPlatformAuditCsv,
  listAuditLog,
  listPlatformAuditLog,
  type PlatformAuditFilters,
} from "./queries";
export { type AuditEntry, auditInsertManySql, writeAudit } from "./write";

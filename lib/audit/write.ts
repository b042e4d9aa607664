import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "@/lib/core";
import type { Executor } from "@/lib/db/client";

export type AuditEntry = {
  orgId: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  data?: Record<string, unknown>;
  at?: Date;
};

/** Write an audit row in the caller's transaction, so it commits (or not) with the change it records. */
export async function writeAudit(exec: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  await exec.execute(auditInsertSql(actor, entry));
}

/**
 * The insert of one audit row, for a caller that writes it within a statement of its own (launch writes the
 * instance, its events and this row in one round trip).
 */
export function auditInsertSql(actor: Actor, entry: AuditEntry): SQL {
  const actorKind = actor.kind === "user" ? (actor.tokenOrgId ? "api" : "user") : "system";
  return sql`
    insert into audit_log (org_id, actor_user_id, actor_kind, action, target_type, target_id, data, at)
    values (${entry.orgId}::uuid, ${actor.kind === "user" ? actor.userId : null}::uuid, ${actorKind},
            ${entry.action}, ${entry.targetType ?? null}, ${entry.targetId ?? null},
            ${entry.data === undefined ? null : JSON.stringify(entry.data)}::jsonb,
            ${(entry.at ?? new Date()).toISOString()}::timestamptz)`;
}

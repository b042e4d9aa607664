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
  await exec.execute(auditInsertManySql([{ actor, entry }]));
}

/**
 * The insert of several audit rows, each by its own actor, in one statement (launches coalesced into one
 * transaction write theirs together). The rows go as one JSON parameter, so the statement's text is the same
 * for any number of rows (one prepared statement).
 */
export function auditInsertManySql(rows: Array<{ actor: Actor; entry: AuditEntry }>): SQL {
  const records = rows.map(({ actor, entry }) => ({
    org_id: entry.orgId,
    actor_user_id: actor.kind === "user" ? actor.userId : null,
    actor_kind: actor.kind === "user" ? (actor.tokenOrgId ? "api" : "user") : "system",
    action: entry.action,
    target_type: entry.targetType ?? null,
    target_id: entry.targetId ?? null,
    // A JSON null becomes SQL NULL in jsonb_to_recordset, as an absent entry.data always did.
    data: entry.data ?? null,
    at: (entry.at ?? new Date()).toISOString(),
  }));
  return sql`
    insert into audit_log (org_id, actor_user_id, actor_kind, action, target_type, target_id, data, at)
    select r.org_id, r.actor_user_id, r.actor_kind, r.action, r.target_type, r.target_id, r.data, r.at
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(org_id uuid, actor_user_id uuid,
      actor_kind text, action text, target_type text, target_id text, data jsonb, at timestamptz)`;
}

import "server-only";
import type { Actor } from "@/lib/core";
import type { Executor } from "@/lib/db/client";
import { auditLog } from "@/lib/db/schema";

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
  await exec.insert(auditLog).values({
    orgId: entry.orgId,
    actorUserId: actor.kind === "user" ? actor.userId : null,
    actorKind: actor.kind === "user" ? (actor.tokenOrgId ? "api" : "user") : "system",
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    data: entry.data ?? null,
    at: entry.at ?? new Date(),
  });
}

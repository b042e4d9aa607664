import "server-only";
import { and, eq } from "drizzle-orm";
import { NotFoundError } from "@/lib/core";
import type { Executor } from "@/lib/db/client";
import { instances } from "@/lib/db/schema";
import type { Instance } from "./types";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An instance of this organization, locked for the rest of the transaction when `lock` is set. Another
 * organization's instance (or a malformed id) is NotFound, never Forbidden: ids do not leak across tenants.
 */
export async function loadOrgInstance(
  exec: Executor,
  orgId: string,
  instanceId: string,
  lock = false,
): Promise<Instance> {
  if (!UUID.test(instanceId)) throw new NotFoundError("Instance");
  const q = exec
    .select()
    .from(instances)
    .where(and(eq(instances.id, instanceId), eq(instances.orgId, orgId)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new NotFoundError("Instance");
  return row;
}

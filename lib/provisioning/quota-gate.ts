import "server-only";
import { sql } from "drizzle-orm";
import { assertBudgetAllowsLaunch, launchCapExistsSql } from "@/lib/budgets";
import { QuotaExceededError } from "@/lib/core";
import type { Tx } from "@/lib/db/client";
import { type GateResult, gateQueue, loadRegionQuotaState, type QueueReason } from "@/lib/quotas";
import { uuidArray } from "./sql";
import type { Instance } from "./types";

/**
 * The quota side of a scheduler tick (lib/quotas decides): which queued instances may be placed now and
 * whether as borrowed, why the others wait, and which borrowed instances to reclaim. Runs under the region's
 * placement lock, which is what makes "held" stable while it decides.
 */
/** What the gate reads of a queued instance. */
export type GatedInstance = Pick<
  Instance,
  "id" | "orgId" | "projectId" | "gpuModelId" | "gpuCount" | "slicesPerGpu"
>;

export async function gateRegion(
  tx: Tx,
  region: string,
  queued: GatedInstance[],
  now: Date,
): Promise<GateResult> {
  const state = await loadRegionQuotaState(
    tx,
    region,
    queued.map((q) => ({ orgId: q.orgId, projectId: q.projectId, modelId: q.gpuModelId })),
  );
  // A budget that blocks launches also keeps already-queued work of its scope from starting. One statement
  // first says which organization × project pairs such a budget covers at all (launch's own test); only those
  // have their spend computed, one by one. Before, every pair of the queue cost a round trip of its own.
  const budgetBlocked = new Map<string, string>();
  const pairs = new Map(queued.map((q) => [`${q.orgId}/${q.projectId}`, q]));
  const capped = await cappedPairs(tx, [...pairs.values()]);
  for (const [k, q] of pairs) {
    if (!capped.has(k)) continue;
    try {
      await assertBudgetAllowsLaunch(tx, q.orgId, q.projectId, now);
    } catch (err) {
      if (!(err instanceof QuotaExceededError)) throw err;
      budgetBlocked.set(k, String(err.details.budgetName ?? ""));
    }
  }
  return gateQueue({
    ...state,
    budgetBlocked,
    requests: queued.map((q) => ({
      id: q.id,
      orgId: q.orgId,
      projectId: q.projectId,
      modelId: q.gpuModelId,
      slices: q.gpuCount * q.slicesPerGpu,
    })),
  });
}

/** The "org/project" keys of the pairs that a budget able to block launches covers. */
async function cappedPairs(
  tx: Tx,
  pairs: Pick<GatedInstance, "orgId" | "projectId">[],
): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const res = await tx.execute<{ org_id: string; project_id: string }>(sql`
    select p.org_id, p.project_id
    from unnest(${uuidArray(pairs.map((p) => p.orgId))}, ${uuidArray(pairs.map((p) => p.projectId))})
      as p(org_id, project_id)
    where ${launchCapExistsSql(sql`p.org_id`, sql`p.project_id`)}`);
  return new Set(res.rows.map((r) => `${r.org_id}/${r.project_id}`));
}

/** Every queued instance that did not start gets its one reason (the gate's, or waiting for GPUs). */
export async function writeQueueReasons(
  tx: Tx,
  region: string,
  waiting: Pick<Instance, "id" | "gpuModelId">[],
  gate: GateResult,
): Promise<void> {
  if (waiting.length === 0) return;
  const rows = waiting.map((q) => ({
    id: q.id,
    reason:
      gate.reasons.get(q.id) ??
      ({ code: "waiting_for_gpus", params: { region, model: q.gpuModelId } } satisfies QueueReason),
  }));
  await tx.execute(sql`
    update instances i set queue_reason = r.reason
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id uuid, reason jsonb)
    where i.id = r.id and i.state = 'queued' and i.queue_reason is distinct from r.reason`);
}

/** An organization back within nominal holds nothing borrowed any more. */
export async function clearBorrowMarks(tx: Tx, region: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const rows = keys.map((k) => {
    const [org, model] = k.split("/");
    return { org, model };
  });
  await tx.execute(sql`
    update instances i set borrowed = false
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(org uuid, model text)
    where i.org_id = r.org and i.gpu_model_id = r.model and i.region_code = ${region} and i.borrowed
      and i.state in ('provisioning', 'running', 'stopping')`);
}

import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import { assertServiceBudgetAllowsReplica } from "@/lib/budgets";
import { type Ctx, DomainError, QuotaExceededError, ValidationError } from "@/lib/core";
import { getDb, type Tx } from "@/lib/db/client";
import { serviceReplicas } from "@/lib/db/schema";
import { INSTANCE_STATES, launch, terminate } from "@/lib/provisioning";
import { recordServiceEvent, recordServiceEventOnce } from "./events";
import type { Service } from "./types";

/** Instance states after which a replica is gone and must be replaced (or was removed on purpose). */
const UP = ["requested", "queued", "provisioning", "running"];
const GONE: string[] = INSTANCE_STATES.filter((s) => !UP.includes(s));

/** Refusals are noted once a minute while they last. */
const REFUSAL_NOTE_MS = 60_000;

export type ReplicaRow = {
  id: string;
  ordinal: number;
  instance_id: string;
  state: string;
  state_reason: string | null;
  ready_at: string | null;
  pricing_model: string;
};

export async function replicaRows(tx: Tx, serviceId: string): Promise<ReplicaRow[]> {
  const res = await tx.execute<ReplicaRow>(sql`
    select r.id, r.ordinal, r.instance_id, i.state::text as state, i.state_reason, r.ready_at, r.pricing_model::text
    from service_replicas r join instances i on i.id = r.instance_id
    where r.service_id = ${serviceId} and r.ended_at is null
    order by r.ordinal`);
  return res.rows;
}

/** A spot replica in these states had its capacity taken back by the provider (a reclaim, not a failure). */
const RECLAIMED = ["preempting", "preempted"];

/**
 * Replicas whose instance ended (failed, preempted, stopped by a policy …): ended, with the reason, to be
 * replaced. `reclaimed` lists the ordinals of spot replicas whose capacity was reclaimed: their replacements
 * go on-demand when the service allows it (spot is, at that moment, what the region just took back).
 */
export async function endLostReplicas(tx: Tx, svc: Service, rows: ReplicaRow[], now: Date) {
  const live: ReplicaRow[] = [];
  const reclaimed: number[] = [];
  for (const r of rows) {
    if (!GONE.includes(r.state)) {
      live.push(r);
      continue;
    }
    if (r.pricing_model === "spot" && RECLAIMED.includes(r.state)) reclaimed.push(r.ordinal);
    await tx
      .update(serviceReplicas)
      .set({ endedAt: now, endReason: r.state })
      .where(eq(serviceReplicas.id, r.id));
    await recordServiceEvent(tx, {
      orgId: svc.orgId,
      serviceId: svc.id,
      at: now,
      code: "replica_lost",
      params: { ordinal: r.ordinal, state: r.state, reason: r.state_reason ?? r.state },
    });
  }
  return { live, reclaimed };
}

function refusalText(err: unknown): string | null {
  if (err instanceof ValidationError) {
    return Object.entries(err.fieldErrors)
      .map(([f, m]) => `${f}: ${m.join("; ")}`)
      .join(" · ");
  }
  if (err instanceof QuotaExceededError || err instanceof DomainError) return err.message;
  return null;
}

/**
 * Launch one replica as an instance through lib/provisioning's launch (role, data residency, price, budget
 * block, quota — the same admission as any instance) and record it, in one transaction. A refusal writes
 * nothing but the service's event saying why; spot replicas that cannot be had fall back to on-demand when the
 * service allows it. Returns false when refused (the pass stops launching for this service).
 */
export async function launchReplica(
  ctx: Ctx,
  svc: Service,
  orgSlug: string,
  projectSlug: string,
  ordinal: number,
  now: Date,
  replacesReclaimed?: number,
): Promise<boolean> {
  const attempt = async (pricingModel: "on_demand" | "spot") =>
    getDb().transaction(async (tx) => {
      // A budget scoped to this service caps its replicas; launch checks the project's and the organization's.
      await assertServiceBudgetAllowsReplica(tx, svc.orgId, svc.id, now);
      const { instance } = await launch({ ...ctx, tx }, orgSlug, {
        kind: "container",
        name: `${svc.name}-r${ordinal}`,
        project: projectSlug,
        region: svc.spec.region,
        instanceType: svc.spec.instanceType,
        pricingModel,
        image: svc.spec.image,
        command: svc.spec.command,
        args: svc.spec.args,
        env: svc.spec.env,
        exposedPort: svc.spec.port,
        workload: "inference",
        autoRecover: false,
        idempotencyKey: `service:${svc.id}:r${ordinal}:${pricingModel}`,
      });
      await tx.insert(serviceReplicas).values({
        orgId: svc.orgId,
        serviceId: svc.id,
        instanceId: instance.id,
        ordinal,
        pricingModel: instance.pricingModel,
        createdAt: now,
      });
      await recordServiceEvent(tx, {
        orgId: svc.orgId,
        serviceId: svc.id,
        at: now,
        code: "replica_launched",
        params: { ordinal, pricing: pricingModel.replace("_", "-") },
      });
    });
  let pricing = svc.spec.pricingModel;
  if (pricing === "spot" && svc.spec.onDemandFallback && replacesReclaimed !== undefined) {
    await recordServiceEvent(getDb(), {
      orgId: svc.orgId,
      serviceId: svc.id,
      at: now,
      code: "spot_reclaimed_fallback",
      params: { ordinal, lost: replacesReclaimed },
    });
    pricing = "on_demand";
  }
  for (;;) {
    try {
      await attempt(pricing);
      return true;
    } catch (err) {
      const reason = refusalText(err);
      if (reason === null) throw err;
      const db = getDb();
      if (pricing === "spot" && svc.spec.onDemandFallback && err instanceof ValidationError) {
        await recordServiceEvent(db, {
          orgId: svc.orgId,
          serviceId: svc.id,
          at: now,
          code: "spot_fallback",
          params: { ordinal, reason },
        });
        pricing = "on_demand";
        continue;
      }
      await recordServiceEventOnce(
        db,
        {
          orgId: svc.orgId,
          serviceId: svc.id,
          at: now,
          code: "replica_refused",
          params: { ordinal, reason },
        },
        REFUSAL_NOTE_MS,
      );
      return false;
    }
  }
}

/** Take a replica out of the gateway's rotation at once and terminate its instance (queued ones are cancelled). */
export async function removeReplica(ctx: Ctx, svc: Service, orgSlug: string, r: ReplicaRow, now: Date) {
  await getDb().transaction(async (tx) => {
    const [ended] = await tx
      .update(serviceReplicas)
      .set({ endedAt: now, endReason: "scaled_down" })
      .where(and(eq(serviceReplicas.id, r.id), isNull(serviceReplicas.endedAt)))
      .returning({ id: serviceReplicas.id });
    if (!ended) return;
    if (!GONE.includes(r.state)) await terminate({ ...ctx, tx }, orgSlug, r.instance_id);
    await recordServiceEvent(tx, {
      orgId: svc.orgId,
      serviceId: svc.id,
      at: now,
      code: "replica_removed",
      params: { ordinal: r.ordinal },
    });
  });
}

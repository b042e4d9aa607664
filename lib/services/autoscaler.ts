import "server-only";
import { eq, sql } from "drizzle-orm";
import { type Ctx, nowOf } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { services } from "@/lib/db/schema";
import { decideScale, type ScalingDecision } from "./decide";
import { recordServiceEvent } from "./events";
import { observedLoad } from "./load";
import { endLostReplicas, launchReplica, removeReplica, replicaRows } from "./replicas";
import type { Service } from "./types";

export type AutoscaleResult = { services: number; launched: number; removed: number; decisions: number };

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * The autoscaler pass (every 2 s): for each service (of one region when given), ends replicas whose instance
 * is gone, decides the replica count from the gateway telemetry (decide.ts), records the decision with its
 * numbers, and converges: launches missing replicas through the instances' admission, removes extra ones
 * (not-ready first, newest first). A deleted service is converged to zero and then left alone. Each service is
 * handled under its own advisory lock (try-lock), so overlapping passes skip what another is doing.
 */
export async function autoscaleServices(
  ctx: Ctx,
  opts: { regionCode?: string; serviceId?: string } = {},
): Promise<AutoscaleResult> {
  const db = getDb();
  const res = await db.execute<{ id: string }>(sql`
    select s.id from services s
    where (s.deleted_at is null or exists (
            select 1 from service_replicas r where r.service_id = s.id and r.ended_at is null))
      and (${opts.regionCode ?? null}::text is null or s.spec->>'region' = ${opts.regionCode ?? null})
      and (${opts.serviceId ?? null}::uuid is null or s.id = ${opts.serviceId ?? null}::uuid)`);
  const out: AutoscaleResult = { services: 0, launched: 0, removed: 0, decisions: 0 };
  for (const { id } of res.rows) {
    const r = await autoscaleOne(ctx, id);
    if (!r) continue;
    out.services += 1;
    out.launched += r.launched;
    out.removed += r.removed;
    out.decisions += r.decided ? 1 : 0;
  }
  return out;
}

async function autoscaleOne(ctx: Ctx, serviceId: string) {
  const now = nowOf(ctx);
  // Phase 1, under the service's lock: lost replicas, the decision and its event.
  const plan = await getDb().transaction(async (tx) => {
    const got = await tx.execute<{ ok: boolean }>(
      sql`select pg_try_advisory_xact_lock(hashtext('forja:autoscale'), hashtext(${serviceId})) as ok`,
    );
    if (!got.rows[0]?.ok) return null;
    const [svc] = await tx.select().from(services).where(eq(services.id, serviceId)).for("update");
    if (!svc) return null;
    const info = await tx.execute<{ slug: string; project_slug: string }>(sql`
      select o.slug, p.slug as project_slug from organizations o join projects p on p.id = ${svc.projectId}
      where o.id = ${svc.orgId}`);
    const names = info.rows[0];
    if (!names) return null;
    const { live, reclaimed } = await endLostReplicas(tx, svc, await replicaRows(tx, svc.id), now);
    if (svc.deletedAt) return { svc, live, reclaimed, desired: 0, names, decided: false };

    const s = svc.spec;
    const load = await observedLoad(tx, svc.id, now, s.scaleToZeroGraceSeconds);
    const rps = s.metric === "rps";
    const ready = live.filter((r) => r.ready_at && r.state === "running").length;
    const input = {
      now,
      current: svc.desiredReplicas,
      ready,
      min: s.minReplicas,
      max: s.maxReplicas,
      target: s.target,
      stableMetric: rps ? load.stableRps : load.stableConcurrency,
      panicMetric: rps ? load.panicRps : load.panicConcurrency,
      waiting: load.waiting,
      lastRequestAt: load.lastRequestAt,
      lastScaleUpAt: svc.lastScaleUpAt,
      lastAtOrAboveAt: svc.lastAtOrAboveAt,
      scaleUpDelayS: s.scaleUpDelaySeconds,
      scaleDownDelayS: s.scaleDownDelaySeconds,
      graceS: s.scaleToZeroGraceSeconds,
    };
    const d: ScalingDecision = decideScale(input);
    const up = d.desired > svc.desiredReplicas;
    const down = d.desired < svc.desiredReplicas;
    await tx
      .update(services)
      .set({
        desiredReplicas: d.desired,
        ...(up ? { lastScaleUpAt: now } : {}),
        ...(down ? { lastScaleDownAt: now } : {}),
        ...(d.atOrAbove ? { lastAtOrAboveAt: now } : {}),
      })
      .where(eq(services.id, svc.id));
    if (d.kind !== "none") {
      await recordServiceEvent(tx, {
        orgId: svc.orgId,
        serviceId: svc.id,
        at: now,
        code: d.kind,
        params: {
          from: svc.desiredReplicas,
          to: d.desired,
          metric: rps ? "requests/s" : "concurrent requests",
          stable: round(input.stableMetric),
          panic: round(input.panicMetric),
          target: s.target,
          ready,
          capacity: round(ready * s.target),
          waiting: load.waiting,
          grace: s.scaleToZeroGraceSeconds,
        },
      });
    }
    return {
      svc: { ...svc, desiredReplicas: d.desired },
      live,
      reclaimed,
      desired: d.desired,
      names,
      decided: d.kind !== "none",
    };
  });
  if (!plan) return null;

  // Phase 2: converge, one replica per transaction (a refusal of one leaves the others as they are).
  const { svc, live, reclaimed, desired, names } = plan;
  let launched = 0;
  let removed = 0;
  if (live.length < desired) {
    const used = await getDb().execute<{ max: number | null }>(
      sql`select max(ordinal) as max from service_replicas where service_id = ${svc.id}`,
    );
    let next = (used.rows[0]?.max ?? 0) + 1;
    for (let n = live.length; n < desired; n++) {
      // Replacements for reclaimed spot replicas come first (they may go on-demand, see launchReplica).
      const replaces = reclaimed.shift();
      const ok = await launchReplica(
        ctx,
        svc as Service,
        names.slug,
        names.project_slug,
        next++,
        now,
        replaces,
      );
      if (!ok) break;
      launched++;
    }
  } else if (live.length > desired) {
    const order = [...live].sort(
      (a, b) => Number(Boolean(a.ready_at)) - Number(Boolean(b.ready_at)) || b.ordinal - a.ordinal,
    );
    for (const r of order.slice(0, live.length - desired)) {
      await removeReplica(ctx, svc as Service, names.slug, r, now);
      removed++;
    }
  }
  return { launched, removed, decided: plan.decided };
}

import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import type { MeteredReservation } from "./coverage";
import { reservationRate } from "./reservation-rate";
import type { MeteredInstance, StateChange } from "./segments";

const TERMINAL = sql.raw(`('terminated', 'rejected', 'cancelled', 'failed')`);

/**
 * What metering needs for one organization and window: the instances that may have billed in it (not yet
 * ended, or changed since the window began), each one's state at the window start plus its changes inside
 * it, and the reservations overlapping it with their locked rates.
 */
export async function loadOrgUsageInputs(tx: Tx, orgId: string, from: number, to: number) {
  const fromDate = new Date(from);
  const toDate = new Date(to);
  const inst = await tx.execute<{
    id: string;
    org_id: string;
    project_id: string;
    instance_type_id: string;
    region_code: string;
    gpu_model_id: string;
    gpu_count: number;
    slices_per_gpu: number;
    pricing_model: MeteredInstance["pricingModel"];
    disk_gib: number;
  }>(sql`
    select id, org_id, project_id, instance_type_id, region_code, gpu_model_id, gpu_count, slices_per_gpu,
      pricing_model, disk_gib
    from instances
    where org_id = ${orgId} and (state not in ${TERMINAL} or updated_at >= ${fromDate})`);
  const instances: MeteredInstance[] = inst.rows.map((r) => ({
    id: r.id,
    orgId: r.org_id,
    projectId: r.project_id,
    instanceTypeId: r.instance_type_id,
    regionCode: r.region_code,
    gpuModelId: r.gpu_model_id,
    gpuCount: r.gpu_count,
    slicesPerGpu: r.slices_per_gpu,
    pricingModel: r.pricing_model,
    diskGib: r.disk_gib,
  }));
  const changes = new Map<string, StateChange[]>();
  if (instances.length > 0) {
    const ids = `{${instances.map((i) => i.id).join(",")}}`;
    const ev = await tx.execute<{ instance_id: string; to_state: string; at: Date | string }>(sql`
      select x.instance_id, x.to_state, x.at from (
        select b.instance_id, b.to_state, b.at, b.id
        from unnest(${ids}::uuid[]) as u(id)
        cross join lateral (
          select instance_id, to_state, at, id from instance_events
          where instance_id = u.id and at < ${fromDate} order by at desc, id desc limit 1
        ) b
        union all
        select instance_id, to_state, at, id from instance_events
        where instance_id = any(${ids}::uuid[]) and at >= ${fromDate} and at < ${toDate}
      ) x
      order by x.instance_id, x.at, x.id`);
    for (const e of ev.rows) {
      const list = changes.get(e.instance_id) ?? [];
      list.push({ at: new Date(e.at).getTime(), state: e.to_state });
      changes.set(e.instance_id, list);
    }
  }
  const res = await tx.execute<{
    id: string;
    org_id: string;
    gpu_model_id: string;
    region_code: string;
    gpu_count: number;
    term: MeteredReservation["term"];
    starts_at: Date | string;
    ends_at: Date | string;
  }>(sql`
    select id, org_id, gpu_model_id, region_code, gpu_count, term, starts_at, ends_at from reservations
    where org_id = ${orgId} and starts_at < ${toDate} and ends_at > ${fromDate}`);
  const reservations: MeteredReservation[] = [];
  for (const r of res.rows) {
    const startsAt = new Date(r.starts_at);
    const rate = await reservationRate(tx, {
      gpuModelId: r.gpu_model_id,
      regionCode: r.region_code,
      term: r.term,
      at: startsAt,
    });
    if (rate === null) console.warn(`[metering] reservation ${r.id} has no ${r.term} price; billed at 0`);
    reservations.push({
      id: r.id,
      orgId: r.org_id,
      gpuModelId: r.gpu_model_id,
      regionCode: r.region_code,
      gpuCount: r.gpu_count,
      term: r.term,
      startsAt: Math.floor(startsAt.getTime() / 1000) * 1000,
      endsAt: Math.floor(new Date(r.ends_at).getTime() / 1000) * 1000,
      usdPerGpuHour: rate ?? 0,
    });
  }
  return { instances, changes, reservations };
}

import { sql } from "drizzle-orm";
import type { getDb } from "@/lib/db/client";

type Db = ReturnType<typeof getDb>;

/** An array literal parameter (text), its elements quoted; null elements stay SQL null. */
function arr(values: (string | number | null)[]): string {
  return `{${values.map((v) => (v === null ? "NULL" : `"${String(v).replace(/["\\]/g, "\\$&")}"`)).join(",")}}`;
}

/**
 * The floor of a tick's writes: the rows the tick wrote in `region` (its allocations and events, and the
 * state, node, deadline and queue reason of every instance it looked at) read back, then written again, from
 * typed arrays as the tick sends them, into copies of the tables without indexes, constraints or triggers,
 * in one transaction that is rolled back. Returns the time of those writes (ms), commit excluded.
 */
export async function bareWrites(db: Db, region: string): Promise<number> {
  const alloc = (
    await db.execute<{
      org_id: string;
      instance_id: string;
      node_id: string;
      node_gpu_id: string;
      slices: number;
      mig_profile: string | null;
      allocated_at: string;
    }>(sql`
      select a.org_id, a.instance_id, a.node_id, a.node_gpu_id, a.slices, a.mig_profile, a.allocated_at::text
      from gpu_allocations a join instances i on i.id = a.instance_id where i.region_code = ${region}`)
  ).rows;
  const events = (
    await db.execute<{
      org_id: string;
      instance_id: string;
      reason: string;
      reason_code: string | null;
      reason_params: string | null;
      at: string;
    }>(sql`
      select e.org_id, e.instance_id, e.reason, e.reason_code, e.reason_params::text, e.at::text
      from instance_events e join instances i on i.id = e.instance_id
      where i.region_code = ${region} and e.to_state = 'provisioning'`)
  ).rows;
  const inst = (
    await db.execute<{
      id: string;
      state: string;
      node_id: string | null;
      state_deadline: string | null;
      queue_reason: string | null;
    }>(sql`
      select id, state::text, node_id, state_deadline::text, queue_reason::text
      from instances where region_code = ${region}`)
  ).rows;
  let ms = 0;
  await db
    .transaction(async (tx) => {
      await tx.execute(
        sql`create table bench_bare_allocations (like gpu_allocations including defaults including identity)`,
      );
      await tx.execute(
        sql`create table bench_bare_events (like instance_events including defaults including identity)`,
      );
      await tx.execute(
        sql`create table bench_bare_instances as select * from instances where region_code = ${region}`,
      );
      const run = async (q: ReturnType<typeof sql>) => {
        const t0 = performance.now();
        await tx.execute(q);
        ms += performance.now() - t0;
      };
      await run(sql`
        insert into bench_bare_allocations (org_id, instance_id, node_id, node_gpu_id, slices, mig_profile, allocated_at)
        select * from unnest(${arr(alloc.map((a) => a.org_id))}::uuid[], ${arr(alloc.map((a) => a.instance_id))}::uuid[],
          ${arr(alloc.map((a) => a.node_id))}::uuid[], ${arr(alloc.map((a) => a.node_gpu_id))}::uuid[],
          ${arr(alloc.map((a) => a.slices))}::int[], ${arr(alloc.map((a) => a.mig_profile))}::text[],
          ${arr(alloc.map((a) => a.allocated_at))}::timestamptz[])`);
      await run(sql`
        insert into bench_bare_events (org_id, instance_id, from_state, to_state, reason, reason_code, reason_params,
          actor_kind, at)
        select e.org_id, e.instance_id, 'queued', 'provisioning', e.reason, e.reason_code, e.reason_params,
          'scheduler', e.at
        from unnest(${arr(events.map((e) => e.org_id))}::uuid[], ${arr(events.map((e) => e.instance_id))}::uuid[],
          ${arr(events.map((e) => e.reason))}::text[], ${arr(events.map((e) => e.reason_code))}::text[],
          ${arr(events.map((e) => e.reason_params))}::jsonb[], ${arr(events.map((e) => e.at))}::timestamptz[])
          as e(org_id, instance_id, reason, reason_code, reason_params, at)`);
      await run(sql`
        update bench_bare_instances i set state = v.state, node_id = v.node_id, state_deadline = v.state_deadline,
          queue_reason = v.queue_reason, updated_at = now()
        from unnest(${arr(inst.map((r) => r.id))}::uuid[], ${arr(inst.map((r) => r.state))}::instance_state[],
          ${arr(inst.map((r) => r.node_id))}::uuid[], ${arr(inst.map((r) => r.state_deadline))}::timestamptz[],
          ${arr(inst.map((r) => r.queue_reason))}::jsonb[]) as v(id, state, node_id, state_deadline, queue_reason)
        where i.id = v.id`);
      throw new Rollback();
    })
    .catch((err) => {
      if (!(err instanceof Rollback)) throw err;
    });
  return ms;
}

class Rollback extends Error {}

import { sql } from "drizzle-orm";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { seedImages } from "@/lib/provisioning";
import { ensureCatalogSeeded } from "@/lib/seed";
import { expectedWaits, queueWaitSeries } from "@/lib/telemetry";
import type { Benchmark } from "./types";

const INSTANCES = 200_000;
const DAYS = 60;
const NOW = new Date("2030-06-20T12:00:00Z");

/**
 * Queue-wait analytics over 200,000 instances' lifecycles (800,000 events spread over 60 days): the catalog's
 * expected wait per region × model (7 days, read on every catalog page) and the 7-day queue-times chart,
 * against a bare count of the same 7 days' waits. The waits are stored when the queued → provisioning event is
 * written (queue_waits, by a trigger); the old way, pairing each provisioning event with the event before it on every request, is
 * measured beside them in the same run.
 */
export const queueWaits: Benchmark = {
  name: "queue-waits",
  description:
    "queue-wait queries (catalog expected wait, queue-times chart) vs. a bare count of the same events",
  async setup() {
    const db = getDb();
    await ensureCatalogSeeded();
    await db.transaction((tx) => seedImages(tx));
    const t0 = performance.now();
    await db.execute(sql`
      insert into organizations (id, slug, name)
      select md5('qw-org-' || n)::uuid, 'qw-' || n, 'Queue ' || n from generate_series(1, 100) n`);
    await db.execute(sql`
      insert into projects (id, org_id, slug, name)
      select md5('qw-project-' || n)::uuid, md5('qw-org-' || n)::uuid, 'p', 'P' from generate_series(1, 100) n`);
    // Each instance: queued at q, provisioning after a 0–30 min wait, running 2 min later, terminated later.
    await db.execute(sql`
      with src as (
        select k, md5('qw-instance-' || k)::uuid as id, md5('qw-org-' || (1 + k % 100))::uuid as org,
          md5('qw-project-' || (1 + k % 100))::uuid as project,
          (array['eu-es-mad1','eu-de-fra1','eu-fi-hel1','uk-lon1','us-east-1','apac-jp-tyo1'])[1 + k % 6] as region,
          (array['h100','a100-80gb','l4','l40s'])[1 + (k / 6) % 4] as model,
          ${NOW}::timestamptz - (k::float8 / ${INSTANCES} * ${DAYS}) * interval '1 day' as q,
          ((k * 7919) % 1800) * interval '1 second' as wait
        from generate_series(1, ${INSTANCES}) k
      ),
      i as (
        insert into instances (id, org_id, project_id, name, kind, state, region_code, instance_type_id,
          gpu_model_id, gpu_count, slices_per_gpu, pricing_model, image_id, disk_gib, workload, created_at,
          queued_at, started_at, stopped_at, updated_at)
        select id, org, project, 'qw-' || k, 'container', 'terminated', region, model || '.1x', model, 1, 7,
          'on_demand', 'pytorch-2.5-cuda12.4', 100, 'training', q, q, q + wait, q + wait + interval '1 hour', q
        from src returning id
      )
      insert into instance_events (org_id, instance_id, from_state, to_state, reason, actor_kind, at)
      select s.org, s.id, e.from_state::instance_state, e.to_state::instance_state, 'bench', 'system', s.q + e.after
      from src s cross join lateral (values
        (null, 'queued', interval '0'),
        ('queued', 'provisioning', s.wait),
        ('provisioning', 'running', s.wait + interval '2 minutes'),
        ('running', 'terminated', s.wait + interval '1 hour')
      ) e(from_state, to_state, after)`);
    await db.execute(sql`vacuum analyze`);
    const loadS = (performance.now() - t0) / 1000;
    const ctx = systemCtx("bench");
    const from = new Date(NOW.getTime() - 7 * 86_400_000);
    return {
      baseline: "count(*) of the waits, 7 d",
      notes: [
        `${INSTANCES.toLocaleString("en")} instances, ${(INSTANCES * 4).toLocaleString("en")} events over ${DAYS} days; loaded in ${loadS.toFixed(1)} s`,
      ],
      variants: [
        {
          name: "count(*) of the waits, 7 d",
          run: () =>
            db.execute(sql`select count(*) from queue_waits where ended_at > ${from} and ended_at <= ${NOW}`),
        },
        { name: "expectedWaits (catalog), 7 d", run: () => expectedWaits(ctx, { now: NOW }) },
        {
          name: "queueWaitSeries, 7 d chart",
          run: () => queueWaitSeries(ctx, { range: "7d", now: NOW }),
        },
        {
          name: "count(*) of provisioning events, 7 d (old baseline)",
          run: () =>
            db.execute(sql`select count(*) from instance_events
              where to_state = 'provisioning' and at > ${from} and at <= ${NOW}`),
        },
        {
          name: "before: waits paired from events, 7 d",
          run: () =>
            db.execute(sql`
              select i.region_code, i.gpu_model_id,
                percentile_cont(0.5) within group (order by extract(epoch from e.at - prev.at)) as p50,
                percentile_cont(0.95) within group (order by extract(epoch from e.at - prev.at)) as p95
              from instance_events e
              join instances i on i.id = e.instance_id
              cross join lateral (
                select p.at, p.to_state from instance_events p
                where p.instance_id = e.instance_id and (p.at, p.id) < (e.at, e.id)
                order by p.at desc, p.id desc limit 1
              ) prev
              where e.to_state = 'provisioning' and prev.to_state = 'queued' and e.at > ${from} and e.at <= ${NOW}
              group by 1, 2`),
        },
      ],
    };
  },
};

-- Issue 13 item 6: gpu_allocations.id was a random uuid. A scheduler tick inserts ~16,400 allocations in one
-- statement, and each row paid for a strong random draw (gen_random_uuid: ~3 µs here) and an insert at a
-- random leaf of the primary key's index. Nothing outside the table reads the id (no foreign key points at
-- it; readers take it as text or test it for null), so it becomes a sequence, as instance_events.id is:
-- the key's index only grows at its right edge. Existing rows are numbered in their physical order.
ALTER TABLE "gpu_allocations" DROP CONSTRAINT "gpu_allocations_pkey";--> statement-breakpoint
ALTER TABLE "gpu_allocations" ADD COLUMN "new_id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "gpu_allocations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "gpu_allocations" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "gpu_allocations" RENAME COLUMN "new_id" TO "id";--> statement-breakpoint
ALTER TABLE "gpu_allocations" ADD CONSTRAINT "gpu_allocations_pkey" PRIMARY KEY ("id");
--> statement-breakpoint
-- Counting the live slices of the GPUs of a set of nodes (the allocation insert's check and node_capacity's
-- refresh) joined every live allocation of the fleet to those GPUs: the planner hashed them all, so the cost
-- grew with the allocations of every other region (a tick's check read 82,000 rows on the bench's fifth
-- region; 49,200 rows: 58 ms). Each GPU's slices are now summed from gpu_allocations_active_gpu_idx, as the
-- scheduler's own read does: the cost follows the GPUs counted (the same 16,000 GPUs: 33 ms). Same result.
-- Both functions run with sequential scans off: a per-GPU sum planned while the statistics call
-- gpu_allocations empty (a new database, or one analyzed after a rolled-back tick) would scan the whole table
-- once per GPU (seconds, under the nodes' locks), and plpgsql keeps that plan until the statistics change.
CREATE OR REPLACE FUNCTION forja_gpu_allocations_inserted() RETURNS trigger LANGUAGE plpgsql
  SET enable_seqscan = off AS $$
DECLARE
  ids uuid[];
  bad record;
BEGIN
  ids := ARRAY(SELECT DISTINCT n.node_id FROM new_allocations n);
  PERFORM 1 FROM node_capacity c WHERE c.node_id = ANY(ids) ORDER BY c.node_id FOR UPDATE;
  WITH gpu AS MATERIALIZED (
    SELECT g.id, g.node_id, g.mig_enabled,
      coalesce((SELECT sum(a.slices) FROM gpu_allocations a
                WHERE a.node_gpu_id = g.id AND a.released_at IS NULL), 0)::int AS used
    FROM node_gpus g
    WHERE g.node_id = ANY(ids)
  ), refreshed AS (
    INSERT INTO node_capacity AS c (node_id, region_code, gpu_model_id, active, whole_free, mig_free)
    SELECT n.id, n.region_code, n.gpu_model_id, n.status = 'active',
      count(*) FILTER (WHERE NOT g.mig_enabled AND g.free = 7)::int,
      ARRAY[
        coalesce(sum(g.free) FILTER (WHERE g.mig_enabled), 0),
        coalesce(sum(g.free / 2) FILTER (WHERE g.mig_enabled), 0),
        coalesce(sum(g.free / 3) FILTER (WHERE g.mig_enabled), 0),
        coalesce(sum(g.free / 4) FILTER (WHERE g.mig_enabled), 0),
        coalesce(sum(g.free / 5) FILTER (WHERE g.mig_enabled), 0),
        coalesce(sum(g.free / 6) FILTER (WHERE g.mig_enabled), 0),
        coalesce(sum(g.free / 7) FILTER (WHERE g.mig_enabled), 0)
      ]::int[]
    FROM nodes n
    LEFT JOIN (SELECT gpu.node_id, gpu.mig_enabled, greatest(0, 7 - gpu.used)::int AS free FROM gpu) g
      ON g.node_id = n.id
    WHERE n.id = ANY(ids)
    GROUP BY n.id
    ON CONFLICT (node_id) DO UPDATE SET region_code = excluded.region_code, gpu_model_id = excluded.gpu_model_id,
      active = excluded.active, whole_free = excluded.whole_free, mig_free = excluded.mig_free
    WHERE (c.region_code, c.gpu_model_id, c.active, c.whole_free, c.mig_free)
      IS DISTINCT FROM (excluded.region_code, excluded.gpu_model_id, excluded.active, excluded.whole_free, excluded.mig_free)
  )
  SELECT misplaced.node_gpu_id AS misplaced_gpu, misplaced.node_id AS misplaced_node,
         over.id AS over_gpu, over.used AS over_used
    INTO bad
  FROM (SELECT 1) one
  LEFT JOIN LATERAL (
    SELECT n.node_gpu_id, n.node_id FROM new_allocations n LEFT JOIN node_gpus g ON g.id = n.node_gpu_id
    WHERE g.node_id IS DISTINCT FROM n.node_id LIMIT 1
  ) misplaced ON true
  LEFT JOIN LATERAL (
    SELECT g.id, g.used FROM gpu g
    WHERE g.used > 7 AND g.id IN (SELECT n.node_gpu_id FROM new_allocations n WHERE n.released_at IS NULL)
    LIMIT 1
  ) over ON true;
  IF bad.misplaced_gpu IS NOT NULL THEN
    RAISE EXCEPTION 'GPU % is not on node %', bad.misplaced_gpu, bad.misplaced_node USING ERRCODE = '23514';
  END IF;
  IF bad.over_gpu IS NOT NULL THEN
    RAISE EXCEPTION 'GPU % is double-booked: % slices allocated, 7 exist', bad.over_gpu, bad.over_used
      USING ERRCODE = '23P01';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forja_refresh_node_capacity(ids uuid[]) RETURNS void LANGUAGE plpgsql
  SET enable_seqscan = off AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM node_capacity c WHERE c.node_id = ANY(ids) ORDER BY c.node_id FOR UPDATE;
  INSERT INTO node_capacity AS c (node_id, region_code, gpu_model_id, active, whole_free, mig_free)
  SELECT n.id, n.region_code, n.gpu_model_id, n.status = 'active',
    count(*) FILTER (WHERE NOT g.mig_enabled AND g.free = 7)::int,
    ARRAY[
      coalesce(sum(g.free) FILTER (WHERE g.mig_enabled), 0),
      coalesce(sum(g.free / 2) FILTER (WHERE g.mig_enabled), 0),
      coalesce(sum(g.free / 3) FILTER (WHERE g.mig_enabled), 0),
      coalesce(sum(g.free / 4) FILTER (WHERE g.mig_enabled), 0),
      coalesce(sum(g.free / 5) FILTER (WHERE g.mig_enabled), 0),
      coalesce(sum(g.free / 6) FILTER (WHERE g.mig_enabled), 0),
      coalesce(sum(g.free / 7) FILTER (WHERE g.mig_enabled), 0)
    ]::int[]
  FROM nodes n
  LEFT JOIN (
    SELECT g.node_id, g.mig_enabled,
      greatest(0, 7 - coalesce((SELECT sum(a.slices) FROM gpu_allocations a
                                WHERE a.node_gpu_id = g.id AND a.released_at IS NULL), 0))::int AS free
    FROM node_gpus g
    WHERE g.node_id = ANY(ids)
  ) g ON g.node_id = n.id
  WHERE n.id = ANY(ids)
  GROUP BY n.id
  ON CONFLICT (node_id) DO UPDATE SET region_code = excluded.region_code, gpu_model_id = excluded.gpu_model_id,
    active = excluded.active, whole_free = excluded.whole_free, mig_free = excluded.mig_free
  WHERE (c.region_code, c.gpu_model_id, c.active, c.whole_free, c.mig_free)
    IS DISTINCT FROM (excluded.region_code, excluded.gpu_model_id, excluded.active, excluded.whole_free, excluded.mig_free);
END $$;

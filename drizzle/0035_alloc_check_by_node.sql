DROP INDEX "gpu_allocations_org_idx";--> statement-breakpoint
-- Issue 13 item 6. A scheduler tick inserts ~16,400 allocations in one statement.
-- * gpu_allocations_org_idx took an entry for each, and nothing reads allocations by organization alone.
-- * The insert trigger's check that each row's GPU is on its row's node looked every row's GPU up in
--   node_gpus' primary key: 16,400 index probes (~19 ms of the trigger's ~85). The trigger already reads
--   every GPU of the new rows' nodes (the gpu CTE, to count their live slices); a row is placed right exactly
--   when its (GPU, node) pair is one of those, so the check is now an anti-join against that CTE, hashed. Same
--   refusals: a GPU of another node, or one that does not exist, is not in the CTE with the row's node.
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
    -- An aggregate, not LIMIT 1: under a LIMIT the planner may pick a nested loop that rescans the CTE for
    -- every row, betting on an early match; the check finds none when all is well, so it must read every row.
    SELECT (array_agg(n.node_gpu_id))[1] AS node_gpu_id, (array_agg(n.node_id))[1] AS node_id
    FROM new_allocations n
    WHERE NOT EXISTS (SELECT FROM gpu g WHERE g.id = n.node_gpu_id AND g.node_id = n.node_id)
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

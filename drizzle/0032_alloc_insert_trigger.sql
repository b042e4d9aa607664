DROP INDEX "instances_idempotency_key";--> statement-breakpoint
CREATE UNIQUE INDEX "instances_idempotency_key" ON "instances" USING btree ("org_id","idempotency_key") WHERE idempotency_key is not null;--> statement-breakpoint
-- Issue 13 item 6: a scheduler tick inserts ~16,400 allocations in one statement, and two statement triggers
-- ran after it, each locking the rows' nodes and each reading the live slices of their GPUs: the fit check
-- (0017/0020/0022) and the capacity refresh (0019). One trigger now does both: it locks the nodes of every new
-- row (their node_capacity rows, in node id order, as before), counts each of their GPUs' live slices once,
-- and from that one count refuses a GPU not on its row's node ('23514') or double-booked ('23P01'), and
-- rewrites the nodes' node_capacity rows. The new rows' nodes are locked whether or not the rows are live (as
-- the fit check did); a node whose new rows are all released is recounted too, which changes nothing there.
-- Updates and deletions keep their triggers (0019's capacity triggers, 0022's row check).
CREATE OR REPLACE FUNCTION forja_gpu_allocations_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
  bad record;
BEGIN
  ids := ARRAY(SELECT DISTINCT n.node_id FROM new_allocations n);
  PERFORM 1 FROM node_capacity c WHERE c.node_id = ANY(ids) ORDER BY c.node_id FOR UPDATE;
  WITH gpu AS MATERIALIZED (
    SELECT g.id, g.node_id, g.mig_enabled, coalesce(sum(a.slices), 0)::int AS used
    FROM node_gpus g
    LEFT JOIN gpu_allocations a ON a.node_gpu_id = g.id AND a.released_at IS NULL
    WHERE g.node_id = ANY(ids)
    GROUP BY g.id
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
DROP TRIGGER gpu_allocations_fit_insert ON gpu_allocations;
--> statement-breakpoint
DROP TRIGGER gpu_allocations_node_capacity_insert ON gpu_allocations;
--> statement-breakpoint
DROP FUNCTION forja_gpu_allocations_fit_bulk();
--> statement-breakpoint
CREATE TRIGGER gpu_allocations_insert_checked AFTER INSERT ON gpu_allocations
  REFERENCING NEW TABLE AS new_allocations
  FOR EACH STATEMENT EXECUTE FUNCTION forja_gpu_allocations_inserted();

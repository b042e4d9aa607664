-- Issue 13: a scheduler tick inserts thousands of allocations and events in one statement each; per-row
-- triggers ran a plpgsql call and two or three queries per row. The same checks, set-based, once per statement.

-- Inserts: every new live allocation must fit its GPU (live slices on one GPU sum to at most 7) and its GPU
-- must belong to its node. The GPUs are locked first, in id order, so concurrent inserts for one GPU take turns
-- and the later one's sums (a new snapshot per statement, READ COMMITTED) see the earlier one's rows. Updates
-- keep the row trigger of 0009 (gpu_allocations_fit), now for UPDATE only.
CREATE OR REPLACE FUNCTION forja_gpu_allocations_fit_bulk() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad record;
BEGIN
  PERFORM 1 FROM node_gpus g
    WHERE g.id IN (SELECT n.node_gpu_id FROM new_allocations n WHERE n.released_at IS NULL)
    ORDER BY g.id FOR UPDATE;
  SELECT n.node_gpu_id, n.node_id INTO bad FROM new_allocations n
    LEFT JOIN node_gpus g ON g.id = n.node_gpu_id
    WHERE n.released_at IS NULL AND g.node_id IS DISTINCT FROM n.node_id LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'GPU % is not on node %', bad.node_gpu_id, bad.node_id USING ERRCODE = '23514';
  END IF;
  SELECT a.node_gpu_id, sum(a.slices) AS used INTO bad FROM gpu_allocations a
    WHERE a.node_gpu_id IN (SELECT n.node_gpu_id FROM new_allocations n WHERE n.released_at IS NULL)
      AND a.released_at IS NULL
    GROUP BY a.node_gpu_id HAVING sum(a.slices) > 7 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'GPU % is double-booked: % slices allocated, 7 exist', bad.node_gpu_id, bad.used
      USING ERRCODE = '23P01';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER gpu_allocations_fit ON gpu_allocations;
--> statement-breakpoint
CREATE TRIGGER gpu_allocations_fit
  BEFORE UPDATE OF node_gpu_id, node_id, slices, mig_profile, released_at ON gpu_allocations
  FOR EACH ROW EXECUTE FUNCTION forja_gpu_allocation_fits();
--> statement-breakpoint
CREATE TRIGGER gpu_allocations_fit_insert AFTER INSERT ON gpu_allocations
  REFERENCING NEW TABLE AS new_allocations
  FOR EACH STATEMENT EXECUTE FUNCTION forja_gpu_allocations_fit_bulk();
--> statement-breakpoint
-- Queue waits (0016), set-based: one insert per statement of events instead of one per provisioning event.
CREATE OR REPLACE FUNCTION forja_record_queue_waits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO queue_waits (event_id, instance_id, org_id, region_code, gpu_model_id, ended_at, wait_seconds)
  SELECT e.id, e.instance_id, e.org_id, i.region_code, i.gpu_model_id, e.at,
    greatest(0, extract(epoch from e.at - q.at))::float8
  FROM new_events e
  JOIN instances i ON i.id = e.instance_id
  CROSS JOIN LATERAL (
    SELECT p.at FROM instance_events p
    WHERE p.instance_id = e.instance_id AND p.to_state = 'queued' AND p.at <= e.at
    ORDER BY p.at DESC, p.id DESC LIMIT 1
  ) q
  WHERE e.from_state = 'queued' AND e.to_state = 'provisioning';
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER instance_events_queue_wait ON instance_events;
--> statement-breakpoint
DROP FUNCTION forja_record_queue_wait();
--> statement-breakpoint
CREATE TRIGGER instance_events_queue_waits AFTER INSERT ON instance_events
  REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION forja_record_queue_waits();

-- Issue 13 item 6: a scheduler tick inserts ~16,400 allocations in one statement. Their node_gpu_id foreign key
-- was a query and a row lock per row (~70 ms of a ~1 s tick), and the fit trigger locked every GPU it touched
-- (~16,000 row locks, one WAL record each). The fit trigger already joins every new row to its GPU; it now
-- locks the rows' nodes (their node_capacity rows, in node id order, which the capacity trigger of 0019 takes
-- anyway: 2,000 locks a tick) and then checks that each GPU exists and is on its node and that no GPU is
-- double-booked. Every writer that can add to a GPU's live slices (this insert, the row trigger for updates)
-- and the removal of a GPU (the guard below) take that node lock first, so they take turns per node, and each
-- check (a new snapshot per statement, READ COMMITTED) sees what the previous holder committed.
ALTER TABLE "gpu_allocations" DROP CONSTRAINT "gpu_allocations_node_gpu_id_node_gpus_id_fk";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forja_gpu_allocations_fit_bulk() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad record;
BEGIN
  PERFORM 1 FROM node_capacity c
    WHERE c.node_id IN (SELECT n.node_id FROM new_allocations n)
    ORDER BY c.node_id FOR UPDATE;
  SELECT n.node_gpu_id, n.node_id INTO bad FROM new_allocations n
    LEFT JOIN node_gpus g ON g.id = n.node_gpu_id
    WHERE g.node_id IS DISTINCT FROM n.node_id LIMIT 1;
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
-- Updates (0009's row trigger): the same node lock, then the same checks for the row.
CREATE OR REPLACE FUNCTION forja_gpu_allocation_fits() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  gpu record;
  used integer;
BEGIN
  IF NEW.released_at IS NOT NULL THEN
    RETURN NEW;
  END IF;
  PERFORM 1 FROM node_capacity c WHERE c.node_id = NEW.node_id FOR UPDATE;
  SELECT g.node_id, g.mig_enabled INTO gpu FROM node_gpus g WHERE g.id = NEW.node_gpu_id;
  IF gpu.node_id IS DISTINCT FROM NEW.node_id THEN
    RAISE EXCEPTION 'GPU % is not on node %', NEW.node_gpu_id, NEW.node_id USING ERRCODE = '23514';
  END IF;
  SELECT coalesce(sum(a.slices), 0) INTO used FROM gpu_allocations a
    WHERE a.node_gpu_id = NEW.node_gpu_id AND a.released_at IS NULL AND a.id <> NEW.id;
  IF used + NEW.slices > 7 THEN
    RAISE EXCEPTION 'GPU % is double-booked: % slices already allocated, % more requested, 7 exist',
      NEW.node_gpu_id, used, NEW.slices USING ERRCODE = '23P01';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- What the foreign key did for deletions: a GPU that an allocation (live or released) references stays.
CREATE OR REPLACE FUNCTION forja_node_gpus_referenced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ref record;
BEGIN
  PERFORM 1 FROM node_capacity c
    WHERE c.node_id IN (SELECT o.node_id FROM old_gpus o)
    ORDER BY c.node_id FOR UPDATE;
  SELECT a.node_gpu_id INTO ref FROM gpu_allocations a WHERE a.node_gpu_id IN (SELECT o.id FROM old_gpus o) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'GPU % is still referenced by gpu_allocations', ref.node_gpu_id USING ERRCODE = '23503';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER node_gpus_allocations_guard AFTER DELETE ON node_gpus
  REFERENCING OLD TABLE AS old_gpus FOR EACH STATEMENT EXECUTE FUNCTION forja_node_gpus_referenced();

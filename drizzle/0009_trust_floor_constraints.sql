-- Issue 12: the database itself refuses a double booking of a GPU and any change to the audit log.

-- A live allocation must fit its GPU: slices of live allocations on one GPU sum to at most 7 (a whole GPU is
-- 7, so it shares with nothing), and the GPU belongs to the allocation's node. MIG mode is the scheduler's
-- business (checkCapacityInvariants reports it). The GPU row is locked first, so two concurrent inserts for
-- one GPU take turns and the second one's sum sees the first (READ COMMITTED: a new snapshot per statement).
CREATE OR REPLACE FUNCTION forja_gpu_allocation_fits() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  gpu record;
  used integer;
BEGIN
  IF NEW.released_at IS NOT NULL THEN
    RETURN NEW;
  END IF;
  SELECT g.node_id, g.mig_enabled INTO gpu FROM node_gpus g WHERE g.id = NEW.node_gpu_id FOR UPDATE;
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
CREATE TRIGGER gpu_allocations_fit
  BEFORE INSERT OR UPDATE OF node_gpu_id, node_id, slices, mig_profile, released_at ON gpu_allocations
  FOR EACH ROW EXECUTE FUNCTION forja_gpu_allocation_fits();
--> statement-breakpoint
-- The audit log is append-only: rows are written, never changed or removed (cascades included).
CREATE OR REPLACE FUNCTION forja_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = '42501';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION forja_audit_log_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION forja_audit_log_append_only();

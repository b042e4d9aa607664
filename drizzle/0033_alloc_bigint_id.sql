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
-- A placement's queue wait starts at the instance's latest entry into the queue. Only that time is read, so
-- the tie-break on the event id (two entries at the same instant give the same time) is dropped: the latest
-- entry is then the first row of a backward scan of instance_events_instance_idx (instance_id, at), instead
-- of a bitmap scan and a sort of all the instance's events, per placement (~6,650 a tick). Same rows written.
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
    ORDER BY p.at DESC LIMIT 1
  ) q
  WHERE e.from_state = 'queued' AND e.to_state = 'provisioning';
  RETURN NULL;
END $$;

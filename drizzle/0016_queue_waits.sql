CREATE TABLE "queue_waits" (
	"event_id" bigint PRIMARY KEY NOT NULL,
	"instance_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"region_code" text NOT NULL,
	"gpu_model_id" text NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"wait_seconds" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queue_waits" ADD CONSTRAINT "queue_waits_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queue_waits_ended_idx" ON "queue_waits" USING btree ("ended_at","region_code","gpu_model_id","wait_seconds");--> statement-breakpoint
CREATE INDEX "queue_waits_pair_idx" ON "queue_waits" USING btree ("region_code","gpu_model_id","ended_at","wait_seconds");--> statement-breakpoint
-- Waits that ended before this migration, paired from the lifecycle events as the queries used to do.
INSERT INTO "queue_waits" ("event_id", "instance_id", "org_id", "region_code", "gpu_model_id", "ended_at", "wait_seconds")
SELECT e.id, e.instance_id, e.org_id, i.region_code, i.gpu_model_id, e.at, greatest(0, extract(epoch from e.at - prev.at))::float8
FROM instance_events e
JOIN instances i ON i.id = e.instance_id
CROSS JOIN LATERAL (
  SELECT p.at, p.to_state FROM instance_events p
  WHERE p.instance_id = e.instance_id AND (p.at, p.id) < (e.at, e.id)
  ORDER BY p.at DESC, p.id DESC LIMIT 1
) prev
WHERE e.to_state = 'provisioning' AND prev.to_state = 'queued';
--> statement-breakpoint
-- From now on each wait is stored as its queued → provisioning event is written, by whichever writer.
CREATE OR REPLACE FUNCTION forja_record_queue_wait() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO queue_waits (event_id, instance_id, org_id, region_code, gpu_model_id, ended_at, wait_seconds)
  SELECT NEW.id, NEW.instance_id, NEW.org_id, i.region_code, i.gpu_model_id, NEW.at,
    greatest(0, extract(epoch from NEW.at - q.at))::float8
  FROM instances i
  CROSS JOIN LATERAL (
    SELECT p.at FROM instance_events p
    WHERE p.instance_id = NEW.instance_id AND p.to_state = 'queued' AND p.at <= NEW.at
    ORDER BY p.at DESC, p.id DESC LIMIT 1
  ) q
  WHERE i.id = NEW.instance_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER instance_events_queue_wait AFTER INSERT ON instance_events
  FOR EACH ROW WHEN (NEW.from_state = 'queued' AND NEW.to_state = 'provisioning')
  EXECUTE FUNCTION forja_record_queue_wait();

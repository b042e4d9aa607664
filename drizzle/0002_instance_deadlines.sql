ALTER TABLE "instances" ADD COLUMN "provision_failure" text;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "spot_checked_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "instances_deadline_idx" ON "instances" USING btree ("state_deadline") WHERE state in ('provisioning', 'stopping', 'terminating', 'preempting');--> statement-breakpoint
CREATE INDEX "instances_node_idx" ON "instances" USING btree ("node_id") WHERE state in ('provisioning', 'running', 'stopping', 'preempting');
ALTER TABLE "instance_events" ADD COLUMN "reason_code" text;--> statement-breakpoint
ALTER TABLE "instance_events" ADD COLUMN "reason_params" jsonb;
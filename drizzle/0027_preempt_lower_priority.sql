ALTER TABLE "instances" ADD COLUMN "preempted_for" uuid;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "preempt_lower_priority" boolean DEFAULT false NOT NULL;
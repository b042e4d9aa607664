CREATE TABLE "notification_reads" (
	"notification_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "notification_reads_notification_id_user_id_pk" PRIMARY KEY("notification_id","user_id")
);
--> statement-breakpoint
DROP INDEX "budget_alerts_once_key";--> statement-breakpoint
ALTER TABLE "instance_events" ADD COLUMN "metering_seen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Events the old id watermark already covered count as seen.
UPDATE "instance_events" SET "metering_seen" = true WHERE "id" <= coalesce((SELECT "last_event_id" FROM "metering_state" WHERE "id" = 1), 0);--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "notification_reads" ADD CONSTRAINT "notification_reads_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_reads" ADD CONSTRAINT "notification_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gpu_allocations_live_whole_gpu_key" ON "gpu_allocations" USING btree ("node_gpu_id") WHERE released_at is null and slices = 7;--> statement-breakpoint
CREATE UNIQUE INDEX "gpu_allocations_live_instance_gpu_key" ON "gpu_allocations" USING btree ("instance_id","node_gpu_id") WHERE released_at is null;--> statement-breakpoint
CREATE INDEX "instance_events_unseen_idx" ON "instance_events" USING btree ("id") WHERE not metering_seen;--> statement-breakpoint
CREATE UNIQUE INDEX "reservations_org_idempotency_key" ON "reservations" USING btree ("org_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "budget_alerts_once_key" ON "budget_alerts" USING btree ("budget_id","period","kind","pct","budget_usd");--> statement-breakpoint
-- Keep what was read as read: a personal notice for its reader, an organization-wide one for its members.
INSERT INTO "notification_reads" ("notification_id", "user_id", "read_at")
  SELECT n."id", coalesce(n."user_id", m."user_id"), n."read_at" FROM "notifications" n
  LEFT JOIN "memberships" m ON n."user_id" IS NULL AND m."org_id" = n."org_id"
  WHERE n."read_at" IS NOT NULL AND coalesce(n."user_id", m."user_id") IS NOT NULL
  ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "notifications" DROP COLUMN "read_at";
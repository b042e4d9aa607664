CREATE TYPE "public"."budget_action" AS ENUM('notify', 'block_launches', 'stop_instances');--> statement-breakpoint
CREATE TYPE "public"."budget_threshold_kind" AS ENUM('actual', 'forecast');--> statement-breakpoint
CREATE TYPE "public"."shutdown_rule" AS ENUM('idle', 'max_runtime', 'schedule');--> statement-breakpoint
CREATE TYPE "public"."usage_entry" AS ENUM('usage', 'reversal', 'reissue');--> statement-breakpoint
CREATE TYPE "public"."usage_kind" AS ENUM('compute', 'storage', 'reservation_commitment');--> statement-breakpoint
CREATE TABLE "auto_shutdown_policies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"project_id" uuid,
	"gpu_model_id" text,
	"default_idle_pct" integer DEFAULT 5 NOT NULL,
	"default_idle_minutes" integer,
	"idle_required" boolean DEFAULT false NOT NULL,
	"idle_minutes_max" integer,
	"idle_pct_min" integer,
	"default_max_runtime_minutes" integer,
	"max_runtime_minutes_max" integer,
	"allow_snooze" boolean DEFAULT true NOT NULL,
	"snooze_minutes_max" integer DEFAULT 60 NOT NULL,
	"max_snoozes" integer DEFAULT 3 NOT NULL,
	"warning_minutes" integer DEFAULT 10 NOT NULL,
	"updated_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "auto_shutdown_policies_scope_key" UNIQUE NULLS NOT DISTINCT("org_id","project_id","gpu_model_id")
);
--> statement-breakpoint
CREATE TABLE "budget_alerts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "budget_alerts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"budget_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"period" text NOT NULL,
	"kind" "budget_threshold_kind" NOT NULL,
	"pct" integer NOT NULL,
	"budget_usd" numeric(14, 2) NOT NULL,
	"actual_usd" numeric(14, 2) NOT NULL,
	"forecast_usd" numeric(14, 2) NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "budgets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"project_id" uuid,
	"name" text NOT NULL,
	"amount_usd" numeric(14, 2) NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"thresholds" jsonb DEFAULT '[{"kind":"actual","pct":50},{"kind":"actual","pct":80},{"kind":"actual","pct":100},{"kind":"forecast","pct":100}]'::jsonb NOT NULL,
	"recipient_user_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"recipient_emails" text[] DEFAULT '{}'::text[] NOT NULL,
	"action_at_100" "budget_action" DEFAULT 'notify' NOT NULL,
	"grace_minutes" integer DEFAULT 60 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "metering_cursors" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"metered_until" timestamp with time zone NOT NULL,
	"dirty_from" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "metering_state" (
	"id" smallint PRIMARY KEY NOT NULL,
	"last_event_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid,
	"kind" text NOT NULL,
	"severity" text DEFAULT 'info' NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"dedupe_key" text,
	"created_at" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "shutdown_warnings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"instance_id" uuid NOT NULL,
	"rule" "shutdown_rule" NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"warned_at" timestamp with time zone NOT NULL,
	"acts_at" timestamp with time zone NOT NULL,
	"snoozed_until" timestamp with time zone,
	"snooze_count" integer DEFAULT 0 NOT NULL,
	"reason" text NOT NULL,
	"cancelled_at" timestamp with time zone,
	"acted_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_records" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "usage_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" uuid NOT NULL,
	"project_id" uuid,
	"instance_id" uuid,
	"reservation_id" uuid,
	"kind" "usage_kind" NOT NULL,
	"entry" "usage_entry" DEFAULT 'usage' NOT NULL,
	"pricing_model" "pricing_model",
	"instance_type_id" text,
	"gpu_model_id" text,
	"region_code" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"seconds" integer NOT NULL,
	"quantity" numeric(16, 6) NOT NULL,
	"unit" text NOT NULL,
	"unit_price" numeric(16, 8) NOT NULL,
	"list_unit_price" numeric(16, 8),
	"amount" numeric(18, 6) NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"correction_of" bigint,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auto_shutdown_policies" ADD CONSTRAINT "auto_shutdown_policies_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_shutdown_policies" ADD CONSTRAINT "auto_shutdown_policies_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_shutdown_policies" ADD CONSTRAINT "auto_shutdown_policies_gpu_model_id_gpu_models_id_fk" FOREIGN KEY ("gpu_model_id") REFERENCES "public"."gpu_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_shutdown_policies" ADD CONSTRAINT "auto_shutdown_policies_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_alerts" ADD CONSTRAINT "budget_alerts_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_alerts" ADD CONSTRAINT "budget_alerts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metering_cursors" ADD CONSTRAINT "metering_cursors_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shutdown_warnings" ADD CONSTRAINT "shutdown_warnings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shutdown_warnings" ADD CONSTRAINT "shutdown_warnings_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "budget_alerts_once_key" ON "budget_alerts" USING btree ("budget_id","period","kind","pct");--> statement-breakpoint
CREATE INDEX "budget_alerts_org_idx" ON "budget_alerts" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "budgets_org_name_key" ON "budgets" USING btree ("org_id",lower("name"));--> statement-breakpoint
CREATE INDEX "budgets_org_idx" ON "budgets" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_dedupe_key" ON "notifications" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "notifications_org_idx" ON "notifications" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shutdown_warnings_once_key" ON "shutdown_warnings" USING btree ("instance_id","rule","due_at");--> statement-breakpoint
CREATE INDEX "shutdown_warnings_open_idx" ON "shutdown_warnings" USING btree ("acts_at") WHERE acted_at is null and cancelled_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_records_instance_key" ON "usage_records" USING btree ("instance_id","kind","period_start") WHERE entry = 'usage' and instance_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_records_commitment_key" ON "usage_records" USING btree ("reservation_id","period_start") WHERE entry = 'usage' and kind = 'reservation_commitment';--> statement-breakpoint
CREATE INDEX "usage_records_org_period_idx" ON "usage_records" USING btree ("org_id","period_start");--> statement-breakpoint
CREATE INDEX "usage_records_period_idx" ON "usage_records" USING btree ("period_start");--> statement-breakpoint
CREATE INDEX "usage_records_instance_idx" ON "usage_records" USING btree ("instance_id");
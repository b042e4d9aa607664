CREATE TYPE "public"."quota_request_status" AS ENUM('open', 'approved', 'partial', 'denied');--> statement-breakpoint
CREATE TABLE "cohort_members" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"cohort_id" uuid NOT NULL,
	"weight" real DEFAULT 1 NOT NULL,
	CONSTRAINT "cohort_weight_positive" CHECK ("cohort_members"."weight" > 0)
);
--> statement-breakpoint
CREATE TABLE "cohorts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_suspensions" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"suspended_by" uuid,
	"suspended_at" timestamp with time zone NOT NULL,
	"notice_ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_quotas" (
	"org_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"gpu_model_id" text NOT NULL,
	"region_code" text NOT NULL,
	"share_gpus" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_quotas_project_id_gpu_model_id_region_code_pk" PRIMARY KEY("project_id","gpu_model_id","region_code")
);
--> statement-breakpoint
CREATE TABLE "quota_defaults" (
	"gpu_model_id" text NOT NULL,
	"region_code" text NOT NULL,
	"nominal_gpus" integer NOT NULL,
	"borrowing_limit_gpus" integer DEFAULT 0 NOT NULL,
	"lending_limit_gpus" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quota_defaults_gpu_model_id_region_code_pk" PRIMARY KEY("gpu_model_id","region_code")
);
--> statement-breakpoint
CREATE TABLE "quota_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"requested_by" uuid,
	"gpu_model_id" text NOT NULL,
	"region_code" text NOT NULL,
	"requested_gpus" integer NOT NULL,
	"until" timestamp with time zone,
	"reason" text NOT NULL,
	"status" "quota_request_status" DEFAULT 'open' NOT NULL,
	"granted_gpus" integer,
	"decision_message" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "borrowed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "queue_reason" jsonb;--> statement-breakpoint
ALTER TABLE "quotas" ADD COLUMN "borrowing_limit_gpus" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "quotas" ADD COLUMN "lending_limit_gpus" integer;--> statement-breakpoint
ALTER TABLE "quotas" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quotas" ADD COLUMN "revert_to_gpus" integer;--> statement-breakpoint
ALTER TABLE "cohort_members" ADD CONSTRAINT "cohort_members_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cohort_members" ADD CONSTRAINT "cohort_members_cohort_id_cohorts_id_fk" FOREIGN KEY ("cohort_id") REFERENCES "public"."cohorts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_suspensions" ADD CONSTRAINT "org_suspensions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_suspensions" ADD CONSTRAINT "org_suspensions_suspended_by_users_id_fk" FOREIGN KEY ("suspended_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_quotas" ADD CONSTRAINT "project_quotas_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_quotas" ADD CONSTRAINT "project_quotas_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quota_requests" ADD CONSTRAINT "quota_requests_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quota_requests" ADD CONSTRAINT "quota_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quota_requests" ADD CONSTRAINT "quota_requests_gpu_model_id_gpu_models_id_fk" FOREIGN KEY ("gpu_model_id") REFERENCES "public"."gpu_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quota_requests" ADD CONSTRAINT "quota_requests_region_code_regions_code_fk" FOREIGN KEY ("region_code") REFERENCES "public"."regions"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quota_requests" ADD CONSTRAINT "quota_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cohort_members_cohort_idx" ON "cohort_members" USING btree ("cohort_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cohorts_name_key" ON "cohorts" USING btree ("name");--> statement-breakpoint
CREATE INDEX "project_quotas_org_idx" ON "project_quotas" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "quota_requests_org_idx" ON "quota_requests" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "quota_requests_status_idx" ON "quota_requests" USING btree ("status");--> statement-breakpoint
ALTER TABLE "quotas" ADD CONSTRAINT "quotas_nonnegative" CHECK ("quotas"."max_gpus" >= 0 and "quotas"."borrowing_limit_gpus" >= 0);--> statement-breakpoint
ALTER TABLE "quotas" ADD CONSTRAINT "quotas_lending_within_nominal" CHECK ("quotas"."lending_limit_gpus" is null or "quotas"."lending_limit_gpus" between 0 and "quotas"."max_gpus");
CREATE TYPE "public"."instance_kind" AS ENUM('notebook', 'container');--> statement-breakpoint
CREATE TYPE "public"."instance_state" AS ENUM('requested', 'queued', 'provisioning', 'running', 'stopping', 'stopped', 'preempting', 'preempted', 'terminating', 'terminated', 'rejected', 'cancelled', 'failed');--> statement-breakpoint
CREATE TYPE "public"."workload_profile" AS ENUM('training', 'notebook', 'inference');--> statement-breakpoint
CREATE TABLE "images" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"framework" text NOT NULL,
	"version" text NOT NULL,
	"reference" text NOT NULL,
	"accelerator" text DEFAULT 'nvidia' NOT NULL,
	"kinds" text[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instance_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "instance_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" uuid NOT NULL,
	"instance_id" uuid NOT NULL,
	"from_state" "instance_state",
	"to_state" "instance_state" NOT NULL,
	"reason" text NOT NULL,
	"actor_user_id" uuid,
	"actor_kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"created_by" uuid,
	"name" text NOT NULL,
	"kind" "instance_kind" NOT NULL,
	"state" "instance_state" NOT NULL,
	"region_code" text NOT NULL,
	"instance_type_id" text NOT NULL,
	"gpu_model_id" text NOT NULL,
	"gpu_count" integer NOT NULL,
	"slices_per_gpu" smallint NOT NULL,
	"pricing_model" "pricing_model" NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"image_id" text NOT NULL,
	"command" text,
	"args" text[],
	"env" jsonb,
	"exposed_port" integer,
	"disk_gib" integer NOT NULL,
	"workload" "workload_profile" NOT NULL,
	"auto_shutdown" jsonb,
	"auto_recover" boolean DEFAULT false NOT NULL,
	"max_runtime_minutes" integer,
	"idempotency_key" text,
	"node_id" uuid,
	"connection" jsonb,
	"state_reason" text,
	"sim_seed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"queued_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"state_deadline" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "metric_rollups_5m" (
	"instance_id" uuid NOT NULL,
	"gpu_index" smallint NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"org_id" uuid NOT NULL,
	"samples" integer NOT NULL,
	"utilization_avg" real NOT NULL,
	"utilization_max" real NOT NULL,
	"memory_used_avg" real NOT NULL,
	"power_avg" real NOT NULL,
	"temperature_avg" real NOT NULL,
	CONSTRAINT "metric_rollups_5m_instance_id_gpu_index_bucket_pk" PRIMARY KEY("instance_id","gpu_index","bucket")
);
--> statement-breakpoint
CREATE TABLE "metric_samples" (
	"instance_id" uuid NOT NULL,
	"gpu_index" smallint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"org_id" uuid NOT NULL,
	"utilization_pct" real NOT NULL,
	"memory_used_gib" real NOT NULL,
	"power_watts" real NOT NULL,
	"temperature_c" real NOT NULL,
	CONSTRAINT "metric_samples_instance_id_gpu_index_at_pk" PRIMARY KEY("instance_id","gpu_index","at")
);
--> statement-breakpoint
CREATE TABLE "quotas" (
	"org_id" uuid NOT NULL,
	"gpu_model_id" text NOT NULL,
	"region_code" text NOT NULL,
	"max_gpus" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotas_org_id_gpu_model_id_region_code_pk" PRIMARY KEY("org_id","gpu_model_id","region_code")
);
--> statement-breakpoint
CREATE TABLE "reservations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"gpu_model_id" text NOT NULL,
	"region_code" text NOT NULL,
	"gpu_count" integer NOT NULL,
	"term" "pricing_model" NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "instance_events" ADD CONSTRAINT "instance_events_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_region_code_regions_code_fk" FOREIGN KEY ("region_code") REFERENCES "public"."regions"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_instance_type_id_instance_types_id_fk" FOREIGN KEY ("instance_type_id") REFERENCES "public"."instance_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_gpu_model_id_gpu_models_id_fk" FOREIGN KEY ("gpu_model_id") REFERENCES "public"."gpu_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotas" ADD CONSTRAINT "quotas_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotas" ADD CONSTRAINT "quotas_gpu_model_id_gpu_models_id_fk" FOREIGN KEY ("gpu_model_id") REFERENCES "public"."gpu_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotas" ADD CONSTRAINT "quotas_region_code_regions_code_fk" FOREIGN KEY ("region_code") REFERENCES "public"."regions"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_gpu_model_id_gpu_models_id_fk" FOREIGN KEY ("gpu_model_id") REFERENCES "public"."gpu_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_region_code_regions_code_fk" FOREIGN KEY ("region_code") REFERENCES "public"."regions"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "instance_events_instance_idx" ON "instance_events" USING btree ("instance_id","at");--> statement-breakpoint
CREATE INDEX "instance_events_org_idx" ON "instance_events" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "instances_org_state_idx" ON "instances" USING btree ("org_id","state");--> statement-breakpoint
CREATE INDEX "instances_queue_idx" ON "instances" USING btree ("region_code","gpu_model_id","priority","queued_at") WHERE state = 'queued';--> statement-breakpoint
CREATE UNIQUE INDEX "instances_idempotency_key" ON "instances" USING btree ("org_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "reservations_org_idx" ON "reservations" USING btree ("org_id");
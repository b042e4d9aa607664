CREATE TABLE "service_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"code" text NOT NULL,
	"params" jsonb NOT NULL,
	"text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_replicas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"instance_id" uuid NOT NULL,
	"ordinal" integer NOT NULL,
	"pricing_model" "pricing_model" NOT NULL,
	"endpoint" text,
	"started_at" timestamp with time zone,
	"ready_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_traffic" (
	"org_id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"gateway" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"requests" integer NOT NULL,
	"status_2xx" integer NOT NULL,
	"status_4xx" integer NOT NULL,
	"status_5xx" integer NOT NULL,
	"hold_timeouts" integer NOT NULL,
	"held" integer NOT NULL,
	"concurrency" real NOT NULL,
	"queued" integer NOT NULL,
	"latency_buckets" integer[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "services" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"created_by" uuid,
	"name" text NOT NULL,
	"spec" jsonb NOT NULL,
	"token_hash" text,
	"desired_replicas" integer DEFAULT 0 NOT NULL,
	"last_scale_up_at" timestamp with time zone,
	"last_scale_down_at" timestamp with time zone,
	"last_at_or_above_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "service_events" ADD CONSTRAINT "service_events_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_replicas" ADD CONSTRAINT "service_replicas_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_replicas" ADD CONSTRAINT "service_replicas_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_replicas" ADD CONSTRAINT "service_replicas_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_traffic" ADD CONSTRAINT "service_traffic_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_events_service_idx" ON "service_events" USING btree ("service_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "service_replicas_instance" ON "service_replicas" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "service_replicas_active_idx" ON "service_replicas" USING btree ("service_id") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "service_replicas_org_idx" ON "service_replicas" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_traffic_key" ON "service_traffic" USING btree ("service_id","gateway","at");--> statement-breakpoint
CREATE INDEX "service_traffic_org_idx" ON "service_traffic" USING btree ("org_id","at");--> statement-breakpoint
CREATE INDEX "services_org_idx" ON "services" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "services_org_name" ON "services" USING btree ("org_id","name") WHERE deleted_at is null;
CREATE TABLE "metric_chart_levels" (
	"instance_id" uuid NOT NULL,
	"level_s" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"org_id" uuid NOT NULL,
	"gpus" smallint[] NOT NULL,
	"samples" integer[] NOT NULL,
	"utilization_avg" real[] NOT NULL,
	"utilization_max" real[] NOT NULL,
	"memory_used_avg" real[] NOT NULL,
	"power_avg" real[] NOT NULL,
	"temperature_avg" real[] NOT NULL,
	CONSTRAINT "metric_chart_levels_instance_id_level_s_bucket_pk" PRIMARY KEY("instance_id","level_s","bucket")
);

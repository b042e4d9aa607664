CREATE TABLE "metric_rollup_levels" (
	"instance_id" uuid NOT NULL,
	"gpu_index" smallint NOT NULL,
	"level_s" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"org_id" uuid NOT NULL,
	"samples" integer NOT NULL,
	"utilization_avg" real NOT NULL,
	"utilization_max" real NOT NULL,
	"memory_used_avg" real NOT NULL,
	"power_avg" real NOT NULL,
	"temperature_avg" real NOT NULL,
	CONSTRAINT "metric_rollup_levels_instance_id_gpu_index_level_s_bucket_pk" PRIMARY KEY("instance_id","gpu_index","level_s","bucket")
);

ALTER TABLE "gpu_models" ADD COLUMN "market_median_usd_per_gpu_hour" real;--> statement-breakpoint
-- Demo databases seeded before this column existed get the medians the seed now writes (lib/seed/catalog-data.json).
UPDATE "gpu_models" AS g SET "market_median_usd_per_gpu_hour" = v.m FROM (VALUES ('b200', 6.89), ('h200', 6.1699), ('h100', 4.29), ('a100-80gb', 2.79), ('a100-40gb', 1.99), ('l40s', 1.2228), ('l4', 0.95), ('a10', 1.29)) AS v(id, m) WHERE g.id = v.id AND g.market_median_usd_per_gpu_hour IS NULL;

ALTER TABLE "gpu_models" ADD COLUMN "market_p10_usd_per_gpu_hour" real;--> statement-breakpoint
ALTER TABLE "gpu_models" ADD COLUMN "market_p90_usd_per_gpu_hour" real;--> statement-breakpoint
-- Demo databases seeded before these columns existed get the range the seed now writes (lib/seed/catalog-data.json).
UPDATE "gpu_models" AS g SET "market_p10_usd_per_gpu_hour" = v.p10, "market_p90_usd_per_gpu_hour" = v.p90 FROM (VALUES ('b200', 6.69, 11.277), ('h200', 2.591, 10.676), ('h100', 2.1791, 11.5159), ('a100-80gb', 1.35, 4.1848), ('a100-40gb', 1.99, 3.6734), ('l40s', 0.85, 2.5058), ('l4', 0.38, 0.95), ('a10', 1.29, 2)) AS v(id, p10, p90) WHERE g.id = v.id AND g.market_p10_usd_per_gpu_hour IS NULL;

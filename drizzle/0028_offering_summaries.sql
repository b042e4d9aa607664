CREATE TABLE "offering_summaries" (
	"instance_type_id" text NOT NULL,
	"region_code" text NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone NOT NULL,
	"on_demand" numeric(12, 4),
	"spot" numeric(12, 4),
	"reserved_1m" numeric(12, 4),
	"reserved_1y" numeric(12, 4),
	"gpu_model_id" text NOT NULL,
	"gpu_count" integer NOT NULL,
	"mig_profile" text,
	"vcpus" integer NOT NULL,
	"ram_gib" integer NOT NULL,
	"local_disk_gib" integer NOT NULL,
	"gpu_model_name" text NOT NULL,
	"gpu_model_memory_gib" integer NOT NULL,
	"bf16_tflops" real,
	"memory_bandwidth_gbps" integer,
	"tdp_watts" integer,
	"market_median_usd_per_gpu_hour" real,
	"mig_slices" integer,
	"gpu_memory_gib" integer NOT NULL,
	"gpu_share" numeric,
	"energy_kw" double precision,
	"region_name" text NOT NULL,
	"city" text NOT NULL,
	"country" text NOT NULL,
	"jurisdiction" text NOT NULL,
	"pue" real NOT NULL,
	"grid_gco2_per_kwh" real NOT NULL,
	"region_active" boolean NOT NULL,
	"capacity_key" text NOT NULL,
	CONSTRAINT "offering_summaries_instance_type_id_region_code_valid_from_pk" PRIMARY KEY("instance_type_id","region_code","valid_from")
);
--> statement-breakpoint
CREATE INDEX "offering_summaries_valid_to_idx" ON "offering_summaries" USING btree ("valid_to");--> statement-breakpoint
CREATE INDEX "node_capacity_region_model_idx" ON "node_capacity" USING btree ("region_code","gpu_model_id");
--> statement-breakpoint
-- Issue 13: the catalog aggregated the prices in force (~2,400 rows) and looked up each offering's type and
-- region facts on every request. Each offering's price periods are now kept in offering_summaries with those
-- facts, rewritten for the offerings a statement touches (never adjusted by deltas): its rows are deleted and
-- recomputed from all of its prices. A period starts at each distinct effective_from / effective_to of the
-- offering's prices (any pricing model) and runs to the next, so every price in force anywhere in it is in
-- force throughout it; periods with no price at all are left out (not on sale then). Writers serialize per
-- region (an advisory lock, taken in one order), so the later statement's recount (a new snapshot per statement,
-- READ COMMITTED) sees the earlier one's committed prices; offerings of other regions never wait.
CREATE OR REPLACE FUNCTION forja_refresh_offering_summaries(type_ids text[], region_codes text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF type_ids IS NULL OR cardinality(type_ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('forja:offering-summary'), k.h)
    FROM (SELECT DISTINCT hashtext(c) AS h FROM unnest(region_codes) AS c ORDER BY 1) k;
  DELETE FROM offering_summaries s
    USING (SELECT DISTINCT * FROM unnest(type_ids, region_codes) AS k(instance_type_id, region_code)) k
    WHERE s.instance_type_id = k.instance_type_id AND s.region_code = k.region_code;
  INSERT INTO offering_summaries (instance_type_id, region_code, valid_from, valid_to, on_demand, spot,
    reserved_1m, reserved_1y, gpu_model_id, gpu_count, mig_profile, vcpus, ram_gib, local_disk_gib,
    gpu_model_name, gpu_model_memory_gib, bf16_tflops, memory_bandwidth_gbps, tdp_watts,
    market_median_usd_per_gpu_hour, mig_slices, gpu_memory_gib, gpu_share, energy_kw, region_name, city, country,
    jurisdiction, pue, grid_gco2_per_kwh, region_active, capacity_key)
  WITH k AS (
    SELECT DISTINCT * FROM unnest(type_ids, region_codes) AS k(instance_type_id, region_code)
  ),
  p AS (
    SELECT p.instance_type_id, p.region_code, p.pricing_model, p.usd_per_hour, p.effective_from,
      coalesce(p.effective_to, 'infinity') AS effective_to
    FROM prices p JOIN k ON k.instance_type_id = p.instance_type_id AND k.region_code = p.region_code
  ),
  boundary AS (
    SELECT instance_type_id, region_code, effective_from AS at FROM p
    UNION
    SELECT instance_type_id, region_code, effective_to FROM p WHERE effective_to < 'infinity'
  ),
  period AS (
    SELECT instance_type_id, region_code, at AS valid_from,
      coalesce(lead(at) OVER (PARTITION BY instance_type_id, region_code ORDER BY at), 'infinity') AS valid_to
    FROM boundary
  ),
  priced AS (
    SELECT d.instance_type_id, d.region_code, d.valid_from, d.valid_to,
      min(p.usd_per_hour) FILTER (WHERE p.pricing_model = 'on_demand') AS on_demand,
      min(p.usd_per_hour) FILTER (WHERE p.pricing_model = 'spot') AS spot,
      min(p.usd_per_hour) FILTER (WHERE p.pricing_model = 'reserved_1m') AS reserved_1m,
      min(p.usd_per_hour) FILTER (WHERE p.pricing_model = 'reserved_1y') AS reserved_1y
    FROM period d
    JOIN p ON p.instance_type_id = d.instance_type_id AND p.region_code = d.region_code
      AND p.effective_from <= d.valid_from AND p.effective_to > d.valid_from
    GROUP BY d.instance_type_id, d.region_code, d.valid_from, d.valid_to
  )
  SELECT d.instance_type_id, d.region_code, d.valid_from, d.valid_to, d.on_demand, d.spot, d.reserved_1m,
    d.reserved_1y, it.gpu_model_id, it.gpu_count, it.mig_profile, it.vcpus, it.ram_gib, it.local_disk_gib,
    gm.name, gm.memory_gib, gm.bf16_tflops, gm.memory_bandwidth_gbps, gm.tdp_watts,
    gm.market_median_usd_per_gpu_hour, mp.slices, coalesce(mp.memory_gib, gm.memory_gib), s.share,
    -- Facility power at the GPUs' limit: TDP × share of the GPUs × the region's PUE (the fallback TDP is
    -- FALLBACK_TDP_WATTS in lib/db/schema/catalog.ts); the same expression, and so the same value, as before.
    coalesce(gm.tdp_watts, 300) / 1000.0 * s.share * r.pue,
    r.name, r.city, r.country, r.jurisdiction, r.pue, r.grid_gco2_per_kwh, r.active,
    r.code || '/' || it.gpu_model_id || CASE WHEN it.mig_profile IS NULL THEN '/w' || it.gpu_count
      ELSE '/m' || coalesce(mp.slices::text, '?') END
  FROM priced d
  JOIN instance_types it ON it.id = d.instance_type_id
  JOIN gpu_models gm ON gm.id = it.gpu_model_id
  JOIN regions r ON r.code = d.region_code
  -- A MIG type's profile (its first entry of that name) from its model's list.
  LEFT JOIN LATERAL (
    SELECT (e.value->>'slices')::int AS slices, (e.value->>'memoryGib')::int AS memory_gib
    FROM jsonb_array_elements(gm.mig_profiles) WITH ORDINALITY AS e(value, n)
    WHERE it.mig_profile IS NOT NULL AND e.value->>'name' = it.mig_profile
    ORDER BY e.n LIMIT 1
  ) mp ON true
  CROSS JOIN LATERAL (
    SELECT CASE WHEN it.mig_profile IS NULL THEN it.gpu_count::numeric ELSE mp.slices / 7.0 END AS share
  ) s;
END $$;
--> statement-breakpoint
-- Prices: the offerings of every row inserted, deleted, or changed (before and after, should one move).
CREATE OR REPLACE FUNCTION forja_offering_summaries_prices() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM forja_refresh_offering_summaries(array_agg(k.instance_type_id), array_agg(k.region_code))
      FROM (SELECT DISTINCT n.instance_type_id, n.region_code FROM new_rows n) k;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM forja_refresh_offering_summaries(array_agg(k.instance_type_id), array_agg(k.region_code))
      FROM (
        SELECT o.instance_type_id, o.region_code FROM old_rows o JOIN new_rows n ON n.id = o.id
          WHERE (o.instance_type_id, o.region_code, o.pricing_model, o.usd_per_hour, o.effective_from, o.effective_to)
            IS DISTINCT FROM (n.instance_type_id, n.region_code, n.pricing_model, n.usd_per_hour, n.effective_from, n.effective_to)
        UNION
        SELECT n.instance_type_id, n.region_code FROM old_rows o JOIN new_rows n ON n.id = o.id
          WHERE (o.instance_type_id, o.region_code, o.pricing_model, o.usd_per_hour, o.effective_from, o.effective_to)
            IS DISTINCT FROM (n.instance_type_id, n.region_code, n.pricing_model, n.usd_per_hour, n.effective_from, n.effective_to)
      ) k;
  ELSE
    PERFORM forja_refresh_offering_summaries(array_agg(k.instance_type_id), array_agg(k.region_code))
      FROM (SELECT DISTINCT o.instance_type_id, o.region_code FROM old_rows o) k;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER prices_offering_summaries_insert AFTER INSERT ON prices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forja_offering_summaries_prices();
--> statement-breakpoint
CREATE TRIGGER prices_offering_summaries_update AFTER UPDATE ON prices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forja_offering_summaries_prices();
--> statement-breakpoint
CREATE TRIGGER prices_offering_summaries_delete AFTER DELETE ON prices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION forja_offering_summaries_prices();
--> statement-breakpoint
-- The facts an offering copies: its instance type's, its GPU model's and its region's. Each change re-reads
-- every offering on sale of what changed (rows without a price have no offering). None of the three can be
-- deleted while a price references it, and a price's deletion is handled above.
CREATE OR REPLACE FUNCTION forja_offering_summaries_facts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'instance_types' THEN
    PERFORM forja_refresh_offering_summaries(array_agg(k.instance_type_id), array_agg(k.region_code))
      FROM (SELECT DISTINCT p.instance_type_id, p.region_code FROM prices p
        WHERE p.instance_type_id IN (SELECT n.id FROM new_rows n)) k;
  ELSIF TG_TABLE_NAME = 'gpu_models' THEN
    PERFORM forja_refresh_offering_summaries(array_agg(k.instance_type_id), array_agg(k.region_code))
      FROM (SELECT DISTINCT p.instance_type_id, p.region_code FROM prices p
        JOIN instance_types it ON it.id = p.instance_type_id
        WHERE it.gpu_model_id IN (SELECT n.id FROM new_rows n)) k;
  ELSE
    PERFORM forja_refresh_offering_summaries(array_agg(k.instance_type_id), array_agg(k.region_code))
      FROM (SELECT DISTINCT p.instance_type_id, p.region_code FROM prices p
        WHERE p.region_code IN (SELECT n.code FROM new_rows n)) k;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER instance_types_offering_summaries_update AFTER UPDATE ON instance_types
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forja_offering_summaries_facts();
--> statement-breakpoint
CREATE TRIGGER gpu_models_offering_summaries_update AFTER UPDATE ON gpu_models
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forja_offering_summaries_facts();
--> statement-breakpoint
CREATE TRIGGER regions_offering_summaries_update AFTER UPDATE ON regions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forja_offering_summaries_facts();
--> statement-breakpoint
-- The offerings that exist before this migration.
SELECT forja_refresh_offering_summaries(array_agg(k.instance_type_id), array_agg(k.region_code))
  FROM (SELECT DISTINCT instance_type_id, region_code FROM prices) k;

ALTER TABLE "offering_summaries" ADD COLUMN "available" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "offering_summaries_region_model_idx" ON "offering_summaries" USING btree ("region_code","gpu_model_id");
--> statement-breakpoint
-- Issue 13: the catalog summed every offering's availability from node_capacity on each request that filters
-- or sorts by it (a lookup object of every capacity key, ~2 of a ~7 ms statement). Each offering's figure is
-- now kept in offering_summaries.available. It is rewritten from node_capacity (never adjusted by deltas) for
-- every offering of each region's model whose nodes a transaction changed, at that transaction's commit
-- (a deferred trigger), not by the statement that changed them: an allocation's statement must not lock the
-- offerings of its model until commit — the scheduler's pass would then hold them while it locks more nodes,
-- and a release holding one of those nodes would wait for them: a deadlock (docs/adr/0013-catalog-summary.md).
-- At commit the writer takes the per-region advisory locks the summary's refresh takes (in the same order,
-- all at once), then recounts with a new snapshot (READ COMMITTED), so it sees every capacity or summary
-- change committed before it, and one committing after it recounts again.
--
-- Free capacity per capacity key of the given (region, model) pairs, by the catalog's rule (until 0031 summed per
-- request in lib/catalog/offerings-sql.ts): over the pair's active nodes, "<region>/<model>/w<n>" is
-- Σ floor(free whole non-MIG GPUs / n) for n whole GPUs, "…/m<slices>" Σ free slices of that size. A node with
-- w free whole GPUs adds to the keys w1..ww; an offering whose key is not here (a type bigger than every
-- node's free count, a MIG profile its model does not list) has 0.
CREATE OR REPLACE FUNCTION forja_capacity_by_key(region_codes text[], model_ids text[])
RETURNS TABLE (capacity_key text, available int) LANGUAGE sql STABLE AS $$
  WITH k AS (
    SELECT DISTINCT * FROM unnest(region_codes, model_ids) AS k(region_code, gpu_model_id)
  ),
  c AS (
    SELECT c.region_code, c.gpu_model_id, c.whole_free, c.mig_free
    FROM node_capacity c JOIN k ON k.region_code = c.region_code AND k.gpu_model_id = c.gpu_model_id
    WHERE c.active
  )
  SELECT c.region_code || '/' || c.gpu_model_id || '/w' || n, sum(c.whole_free / n)::int
  FROM c CROSS JOIN LATERAL generate_series(1, c.whole_free) AS n
  WHERE c.whole_free > 0
  GROUP BY c.region_code, c.gpu_model_id, n
  UNION ALL
  SELECT c.region_code || '/' || c.gpu_model_id || '/m' || n, sum(c.mig_free[n])::int
  FROM c CROSS JOIN generate_series(1, 7) AS n
  WHERE c.mig_free[1] > 0
  GROUP BY c.region_code, c.gpu_model_id, n
$$;
--> statement-breakpoint
-- The offerings' rows as before (drizzle 0028), with their availability read when they are written.
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
    jurisdiction, pue, grid_gco2_per_kwh, region_active, capacity_key, available)
  WITH k AS (
    SELECT DISTINCT * FROM unnest(type_ids, region_codes) AS k(instance_type_id, region_code)
  ),
  cap AS (
    SELECT * FROM forja_capacity_by_key(
      ARRAY(SELECT k.region_code FROM k JOIN instance_types it ON it.id = k.instance_type_id
        ORDER BY k.instance_type_id, k.region_code),
      ARRAY(SELECT it.gpu_model_id FROM k JOIN instance_types it ON it.id = k.instance_type_id
        ORDER BY k.instance_type_id, k.region_code))
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
    ck.capacity_key, coalesce(cap.available, 0)
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
  ) s
  CROSS JOIN LATERAL (
    SELECT r.code || '/' || it.gpu_model_id || CASE WHEN it.mig_profile IS NULL THEN '/w' || it.gpu_count
      ELSE '/m' || coalesce(mp.slices::text, '?') END AS capacity_key
  ) ck
  LEFT JOIN cap ON cap.capacity_key = ck.capacity_key;
END $$;
--> statement-breakpoint
-- Every offering of the given (region, model) pairs recounted; only rows whose figure changed are written. It
-- runs at every commit that changed a node's capacity: one generic plan, kept, instead of planning the
-- update for each call's arrays (planning took ~1 of its ~1.4 ms for one pair).
CREATE OR REPLACE FUNCTION forja_refresh_offering_availability(region_codes text[], model_ids text[])
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF region_codes IS NULL OR cardinality(region_codes) = 0 THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('forja:offering-summary'), k.h)
    FROM (SELECT DISTINCT hashtext(c) AS h FROM unnest(region_codes) AS c ORDER BY 1) k;
  UPDATE offering_summaries s SET available = v.available
  FROM (
    SELECT s.instance_type_id, s.region_code, s.valid_from, coalesce(c.available, 0) AS available
    FROM offering_summaries s
    JOIN (SELECT DISTINCT * FROM unnest(region_codes, model_ids) AS k(region_code, gpu_model_id)) k
      ON k.region_code = s.region_code AND k.gpu_model_id = s.gpu_model_id
    LEFT JOIN forja_capacity_by_key(region_codes, model_ids) c ON c.capacity_key = s.capacity_key
  ) v
  WHERE s.instance_type_id = v.instance_type_id AND s.region_code = v.region_code
    AND s.valid_from = v.valid_from AND s.available IS DISTINCT FROM v.available;
END $$;
--> statement-breakpoint
-- A statement that changed node_capacity notes the (region, model) pairs of its rows, before and after, in a
-- transaction-local setting (undone with a rolled-back savepoint, as the rows are); the deferred trigger
-- below reads them at commit.
CREATE OR REPLACE FUNCTION forja_offering_availability_note() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  noted jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(DISTINCT jsonb_build_array(n.region_code, n.gpu_model_id)) INTO noted FROM new_rows n;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT jsonb_agg(DISTINCT k.pair) INTO noted FROM (
      SELECT jsonb_build_array(o.region_code, o.gpu_model_id) AS pair FROM old_rows o
      UNION ALL
      SELECT jsonb_build_array(n.region_code, n.gpu_model_id) FROM new_rows n
    ) k;
  ELSE
    SELECT jsonb_agg(DISTINCT jsonb_build_array(o.region_code, o.gpu_model_id)) INTO noted FROM old_rows o;
  END IF;
  IF noted IS NOT NULL THEN
    SELECT jsonb_agg(DISTINCT e) INTO noted FROM jsonb_array_elements(
      coalesce(nullif(current_setting('forja.capacity_changed', true), '')::jsonb, '[]'::jsonb) || noted) AS e;
    PERFORM set_config('forja.capacity_changed', noted::text, true);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER node_capacity_offering_availability_insert AFTER INSERT ON node_capacity
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forja_offering_availability_note();
--> statement-breakpoint
CREATE TRIGGER node_capacity_offering_availability_update AFTER UPDATE ON node_capacity
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forja_offering_availability_note();
--> statement-breakpoint
CREATE TRIGGER node_capacity_offering_availability_delete AFTER DELETE ON node_capacity
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION forja_offering_availability_note();
--> statement-breakpoint
-- At commit (one queued event per changed node_capacity row; the first takes every noted pair and clears the
-- note, the rest find it empty): all pairs recounted at once, their regions locked in one order.
CREATE OR REPLACE FUNCTION forja_offering_availability_commit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  noted jsonb := nullif(current_setting('forja.capacity_changed', true), '')::jsonb;
BEGIN
  IF noted IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('forja.capacity_changed', '', true);
  PERFORM forja_refresh_offering_availability(
    ARRAY(SELECT e->>0 FROM jsonb_array_elements(noted) AS e),
    ARRAY(SELECT e->>1 FROM jsonb_array_elements(noted) AS e));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER node_capacity_offering_availability_commit
  AFTER INSERT OR UPDATE OR DELETE ON node_capacity DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION forja_offering_availability_commit();
--> statement-breakpoint
-- The offerings that exist before this migration.
SELECT forja_refresh_offering_availability(array_agg(k.region_code), array_agg(k.gpu_model_id))
  FROM (SELECT DISTINCT region_code, gpu_model_id FROM offering_summaries) k;

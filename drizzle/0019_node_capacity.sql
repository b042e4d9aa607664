CREATE TABLE "node_capacity" (
	"node_id" uuid PRIMARY KEY NOT NULL,
	"region_code" text NOT NULL,
	"gpu_model_id" text NOT NULL,
	"active" boolean NOT NULL,
	"whole_free" integer NOT NULL,
	"mig_free" integer[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "node_capacity" ADD CONSTRAINT "node_capacity_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Issue 13: the catalog recounted every GPU and live allocation of every active node on each request. Each
-- node's capacity is now kept in node_capacity, rewritten from the node's own GPUs and live allocations (never
-- adjusted by deltas) by the statement that changes them. The rows of the nodes touched are locked first, in id
-- order, so two statements on one node take turns and the later one's recount (a new snapshot per statement,
-- READ COMMITTED) sees the earlier one's committed rows; statements on other nodes never wait for each other.
CREATE OR REPLACE FUNCTION forja_refresh_node_capacity(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM node_capacity c WHERE c.node_id = ANY(ids) ORDER BY c.node_id FOR UPDATE;
  INSERT INTO node_capacity AS c (node_id, region_code, gpu_model_id, active, whole_free, mig_free)
  SELECT n.id, n.region_code, n.gpu_model_id, n.status = 'active',
    count(*) FILTER (WHERE NOT g.mig_enabled AND g.free = 7)::int,
    ARRAY[
      coalesce(sum(g.free) FILTER (WHERE g.mig_enabled), 0),
      coalesce(sum(g.free / 2) FILTER (WHERE g.mig_enabled), 0),
      coalesce(sum(g.free / 3) FILTER (WHERE g.mig_enabled), 0),
      coalesce(sum(g.free / 4) FILTER (WHERE g.mig_enabled), 0),
      coalesce(sum(g.free / 5) FILTER (WHERE g.mig_enabled), 0),
      coalesce(sum(g.free / 6) FILTER (WHERE g.mig_enabled), 0),
      coalesce(sum(g.free / 7) FILTER (WHERE g.mig_enabled), 0)
    ]::int[]
  FROM nodes n
  LEFT JOIN (
    SELECT g.node_id, g.mig_enabled, greatest(0, 7 - coalesce(sum(a.slices), 0))::int AS free
    FROM node_gpus g
    LEFT JOIN gpu_allocations a ON a.node_gpu_id = g.id AND a.released_at IS NULL
    WHERE g.node_id = ANY(ids)
    GROUP BY g.id
  ) g ON g.node_id = n.id
  WHERE n.id = ANY(ids)
  GROUP BY n.id
  ON CONFLICT (node_id) DO UPDATE SET region_code = excluded.region_code, gpu_model_id = excluded.gpu_model_id,
    active = excluded.active, whole_free = excluded.whole_free, mig_free = excluded.mig_free
  WHERE (c.region_code, c.gpu_model_id, c.active, c.whole_free, c.mig_free)
    IS DISTINCT FROM (excluded.region_code, excluded.gpu_model_id, excluded.active, excluded.whole_free, excluded.mig_free);
END $$;
--> statement-breakpoint
-- Allocations: only rows that are (or were) live change what a node can place.
CREATE OR REPLACE FUNCTION forja_node_capacity_allocations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM forja_refresh_node_capacity(ARRAY(
      SELECT DISTINCT n.node_id FROM new_rows n WHERE n.released_at IS NULL));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM forja_refresh_node_capacity(ARRAY(
      SELECT DISTINCT unnest(ARRAY[o.node_id, n.node_id]) FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.node_id, o.node_gpu_id, o.slices, o.released_at IS NULL)
          IS DISTINCT FROM (n.node_id, n.node_gpu_id, n.slices, n.released_at IS NULL)));
  ELSE
    PERFORM forja_refresh_node_capacity(ARRAY(
      SELECT DISTINCT o.node_id FROM old_rows o WHERE o.released_at IS NULL));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER gpu_allocations_node_capacity_insert AFTER INSERT ON gpu_allocations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forja_node_capacity_allocations();
--> statement-breakpoint
CREATE TRIGGER gpu_allocations_node_capacity_update AFTER UPDATE ON gpu_allocations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forja_node_capacity_allocations();
--> statement-breakpoint
CREATE TRIGGER gpu_allocations_node_capacity_delete AFTER DELETE ON gpu_allocations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION forja_node_capacity_allocations();
--> statement-breakpoint
-- A node's GPUs: added, removed (a node's deletion cascades here) or switched in or out of MIG mode.
CREATE OR REPLACE FUNCTION forja_node_capacity_gpus() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM forja_refresh_node_capacity(ARRAY(SELECT DISTINCT n.node_id FROM new_rows n));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM forja_refresh_node_capacity(ARRAY(
      SELECT DISTINCT unnest(ARRAY[o.node_id, n.node_id]) FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.node_id, o.mig_enabled) IS DISTINCT FROM (n.node_id, n.mig_enabled)));
  ELSE
    PERFORM forja_refresh_node_capacity(ARRAY(SELECT DISTINCT o.node_id FROM old_rows o));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER node_gpus_node_capacity_insert AFTER INSERT ON node_gpus
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forja_node_capacity_gpus();
--> statement-breakpoint
CREATE TRIGGER node_gpus_node_capacity_update AFTER UPDATE ON node_gpus
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forja_node_capacity_gpus();
--> statement-breakpoint
CREATE TRIGGER node_gpus_node_capacity_delete AFTER DELETE ON node_gpus
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION forja_node_capacity_gpus();
--> statement-breakpoint
-- Nodes: a new node gets its row; a drain, an outage or a move re-reads it (a deletion cascades the row away).
CREATE OR REPLACE FUNCTION forja_node_capacity_nodes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM forja_refresh_node_capacity(ARRAY(SELECT n.id FROM new_rows n));
  ELSE
    PERFORM forja_refresh_node_capacity(ARRAY(
      SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.status, o.region_code, o.gpu_model_id) IS DISTINCT FROM (n.status, n.region_code, n.gpu_model_id)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER nodes_node_capacity_insert AFTER INSERT ON nodes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forja_node_capacity_nodes();
--> statement-breakpoint
CREATE TRIGGER nodes_node_capacity_update AFTER UPDATE ON nodes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forja_node_capacity_nodes();
--> statement-breakpoint
-- The nodes that exist before this migration.
SELECT forja_refresh_node_capacity(ARRAY(SELECT id FROM nodes));

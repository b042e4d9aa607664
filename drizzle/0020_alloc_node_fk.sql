-- Issue 13: a scheduler tick inserts ~16,000 allocations in one statement, and each row's foreign-key check on
-- node_id was a query of its own (~a quarter of the insert). The statement trigger of 0017 already joins every
-- new row to its GPU: it now checks the node of every new row (released ones too), so node_id needs no foreign
-- key of its own: the GPU exists (node_gpu_id keeps its key), it is on this node, and node_gpus references
-- nodes (a node cannot be deleted while an allocation references one of its GPUs). Updates keep the row
-- trigger of 0009, which checks the same.
ALTER TABLE "gpu_allocations" DROP CONSTRAINT "gpu_allocations_node_id_nodes_id_fk";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forja_gpu_allocations_fit_bulk() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad record;
BEGIN
  PERFORM 1 FROM node_gpus g
    WHERE g.id IN (SELECT n.node_gpu_id FROM new_allocations n WHERE n.released_at IS NULL)
    ORDER BY g.id FOR UPDATE;
  SELECT n.node_gpu_id, n.node_id INTO bad FROM new_allocations n
    LEFT JOIN node_gpus g ON g.id = n.node_gpu_id
    WHERE g.node_id IS DISTINCT FROM n.node_id LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'GPU % is not on node %', bad.node_gpu_id, bad.node_id USING ERRCODE = '23514';
  END IF;
  SELECT a.node_gpu_id, sum(a.slices) AS used INTO bad FROM gpu_allocations a
    WHERE a.node_gpu_id IN (SELECT n.node_gpu_id FROM new_allocations n WHERE n.released_at IS NULL)
      AND a.released_at IS NULL
    GROUP BY a.node_gpu_id HAVING sum(a.slices) > 7 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'GPU % is double-booked: % slices allocated, 7 exist', bad.node_gpu_id, bad.used
      USING ERRCODE = '23P01';
  END IF;
  RETURN NULL;
END $$;

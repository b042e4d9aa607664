-- Issue 13 item 6. gpu_allocations_live_whole_gpu_key (one live whole-GPU row per GPU) repeated a rule the
-- triggers already keep, under the node's lock: no GPU's live slices sum past 7 (the insert's statement
-- trigger, 0032/0035; an update's row trigger, 0022), and a second whole GPU is 7 + 7. A scheduler tick
-- inserts ~15,600 whole-GPU rows in one statement and each paid a uniqueness check (~25 ms a tick, measured
-- with pg_stat_statements). Nothing reads through the index. A double booking is now refused with 23P01 only.
DROP INDEX "gpu_allocations_live_whole_gpu_key";

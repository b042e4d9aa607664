-- Issue 13 item 6: a scheduler tick inserts ~16,400 allocations in one statement, and this index took an entry
-- for each (~100 ms of CPU under load, measured). Every reader by instance_id reads live rows (the holders
-- read, a release, an engine's sync), which gpu_allocations_live_instance_gpu_key (instance_id, node_gpu_id)
-- WHERE released_at IS NULL serves; released rows are read by node, GPU or time, never by instance alone.
DROP INDEX "gpu_allocations_instance_idx";

-- Issue 13 item 3: every insert of instance_events runs the statement trigger that records queue waits (0017),
-- including launch's two events (created → requested → queued), which never hold a queued → provisioning
-- step. The trigger's insert reads the transition table, so plpgsql plans it again on each call: ~0.1 ms of
-- launch's database time for nothing (pg_stat_user_functions: 107 µs a launch). The function now first asks
-- whether the statement wrote any such step (a one-line plan) and returns at once when it did not. The same
-- rows are recorded when it did.
CREATE OR REPLACE FUNCTION forja_record_queue_waits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT FROM new_events WHERE from_state = 'queued' AND to_state = 'provisioning') THEN
    RETURN NULL;
  END IF;
  INSERT INTO queue_waits (event_id, instance_id, org_id, region_code, gpu_model_id, ended_at, wait_seconds)
  SELECT e.id, e.instance_id, e.org_id, i.region_code, i.gpu_model_id, e.at,
    greatest(0, extract(epoch from e.at - q.at))::float8
  FROM new_events e
  JOIN instances i ON i.id = e.instance_id
  CROSS JOIN LATERAL (
    SELECT p.at FROM instance_events p
    WHERE p.instance_id = e.instance_id AND p.to_state = 'queued' AND p.at <= e.at
    ORDER BY p.at DESC, p.id DESC LIMIT 1
  ) q
  WHERE e.from_state = 'queued' AND e.to_state = 'provisioning';
  RETURN NULL;
END $$;

-- Issue 13 item 5: a chart level row's all-GPU figures beside its arrays, so a chart reads three columns per row
-- instead of ~4 array subscripts per GPU (for 8 GPUs over 7 days ~25 % of the chart statement, measured). The
-- weighted sums are Σ avg[k]::float8 × samples[k] in array order, the same float8 operations a chart did on the
-- arrays, so its output does not change. Existing rows are filled from their own arrays, then the columns are
-- required (rollupLevels writes them with the arrays).
ALTER TABLE "metric_chart_levels"
  ADD COLUMN "samples_total" integer,
  ADD COLUMN "utilization_wsum" double precision,
  ADD COLUMN "utilization_peak" real,
  ADD COLUMN "memory_used_wsum" double precision,
  ADD COLUMN "memory_used_peak" real,
  ADD COLUMN "power_wsum" double precision,
  ADD COLUMN "power_peak" real,
  ADD COLUMN "temperature_wsum" double precision,
  ADD COLUMN "temperature_peak" real;--> statement-breakpoint
UPDATE "metric_chart_levels" l SET
  ("samples_total", "utilization_wsum", "utilization_peak", "memory_used_wsum", "memory_used_peak", "power_wsum",
   "power_peak", "temperature_wsum", "temperature_peak") = (
    SELECT sum(x.n)::int, sum(x.ua::float8 * x.n ORDER BY x.k), max(x.um), sum(x.ma::float8 * x.n ORDER BY x.k),
      max(x.ma), sum(x.pa::float8 * x.n ORDER BY x.k), max(x.pa), sum(x.ta::float8 * x.n ORDER BY x.k), max(x.ta)
    FROM unnest(l.samples, l.utilization_avg, l.utilization_max, l.memory_used_avg, l.power_avg, l.temperature_avg)
      WITH ORDINALITY AS x(n, ua, um, ma, pa, ta, k)
  );--> statement-breakpoint
ALTER TABLE "metric_chart_levels"
  ALTER COLUMN "samples_total" SET NOT NULL,
  ALTER COLUMN "utilization_wsum" SET NOT NULL,
  ALTER COLUMN "utilization_peak" SET NOT NULL,
  ALTER COLUMN "memory_used_wsum" SET NOT NULL,
  ALTER COLUMN "memory_used_peak" SET NOT NULL,
  ALTER COLUMN "power_wsum" SET NOT NULL,
  ALTER COLUMN "power_peak" SET NOT NULL,
  ALTER COLUMN "temperature_wsum" SET NOT NULL,
  ALTER COLUMN "temperature_peak" SET NOT NULL;

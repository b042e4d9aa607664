/**
 * lib/telemetry: GPU metrics (ingest from the provider, 5-minute rollups, downsampled chart series), container
 * logs, energy, queue-time and fleet-capacity analytics, and the demo history back-fill. Framework-free; the
 * worker, route handlers and pages call these.
 */

export { linearTrend, type Trend } from "./capacity-forecast";
export { type CapacityPlanRow, getCapacityPlan, PLAN_DAYS } from "./capacity-plan";
export { seedDemoHistory } from "./demo-seed";
export { energyKwh } from "./energy";
export {
  type FleetCapacityPoint,
  type FleetCapacityQuery,
  type FleetCapacitySeries,
  fleetCapacityQuerySchema,
  fleetCapacitySeries,
} from "./fleet";
export { type BackfillOptions, type BackfillResult, backfillHistory } from "./history";
export { type HistoryProfile, planHistory } from "./history-plan";
export { type IngestResult, ingestMetrics, MAX_CATCH_UP_MS, METRIC_STATES } from "./ingest";
export {
  type InstanceLogLine,
  type InstanceLogs,
  type InstanceLogsQuery,
  instanceLogs,
  instanceLogsQuerySchema,
} from "./logs";
export {
  type OfferingWaitPoint,
  type OfferingWaitSeries,
  type QueueWaitsByOffering,
  type QueueWaitsByOfferingQuery,
  queueWaitsByOffering,
  queueWaitsByOfferingSchema,
} from "./queries-charts";
export {
  type ExpectedWait,
  expectedWaits,
  type QueueDepth,
  type QueueWaitPoint,
  type QueueWaitQuery,
  type QueueWaitSeries,
  queueWaitQuerySchema,
  queueWaitSeries,
} from "./queue";
export { ANALYTICS_BIN_SECONDS, CHART_RANGES, type ChartRange, MAX_POINTS, RANGE_SPECS } from "./ranges";
export {
  DEFAULT_RAW_RETENTION_DAYS,
  MIN_RAW_RETENTION_DAYS,
  pruneRawSamples,
  rawRetentionDays,
} from "./retention";
export { ROLLUP_BUCKET_MS, ROLLUP_LEVELS, rollupLevels, rollupMetrics } from "./rollup";
export {
  CHART_COLUMNS,
  CHART_METRICS,
  type ChartMetric,
  type SeriesPoint,
  type UtilizationQuery,
  type UtilizationSeries,
  utilizationQuerySchema,
  utilizationSeries,
} from "./series";
export { chartQuery, rowsRead } from "./series-sql";

import { evaluateAutoShutdown } from "@/lib/autoshutdown";
import { evaluateBudgets } from "@/lib/budgets";
import { systemCtx } from "@/lib/core";
import { meterUsage } from "@/lib/metering";
import { deliverOutbox, deliverWebhooks } from "@/lib/notify";
import {
  placeQueuedInstances,
  policyStop,
  reconcileInstances,
  syncConfiguredEngines,
} from "@/lib/provisioning";
import { expireQuotaRaises } from "@/lib/quotas";
import { autoscaleServices } from "@/lib/services";
import { ingestMetrics, pruneRawSamples, rollupMetrics } from "@/lib/telemetry";

export type PeriodicTask = {
  name: string;
  everySeconds: number;
  timeoutSeconds?: number;
  run: () => Promise<void>;
};

/**
 * Every periodic job of the worker. Domains add theirs here. Time in the worker is the wall clock; the
 * simulated provider shortens its own delays when FORJA_SIM_SPEED > 1 (e2e runs use 30), so nothing here
 * needs to know about simulated time.
 */
export const periodicTasks: PeriodicTask[] = [
  {
    // Several workers may run it at once: placement takes a lock per region.
    name: "provisioning-schedule",
    everySeconds: 2,
    run: async () => {
      await placeQueuedInstances(systemCtx("scheduler"));
    },
  },
  {
    // Rows are claimed with SKIP LOCKED, so concurrent runs split the work instead of repeating it.
    name: "provisioning-reconcile",
    everySeconds: 2,
    run: async () => {
      await reconcileInstances(systemCtx("provider"));
    },
  },
  {
    // Temporary quota raises end on their date; rows are claimed with SKIP LOCKED.
    name: "quotas-expire-raises",
    everySeconds: 60,
    run: async () => {
      await expireQuotaRaises(systemCtx("quota-expiry"));
    },
  },
  {
    // Regions on a Kubernetes cluster (FORJA_KUBERNETES_CONFIG): pods created/deleted and states taken from the
    // cluster's watch. Level-triggered, so a pass that runs twice or after a restart converges to the same.
    name: "provisioning-engines-sync",
    everySeconds: 2,
    run: async () => {
      await syncConfiguredEngines();
    },
  },
  {
    // Each service under its own try-lock: overlapping runs skip what another is sizing.
    name: "services-autoscale",
    everySeconds: 2,
    run: async () => {
      await autoscaleServices(systemCtx("autoscaler"));
    },
  },
  {
    name: "notify-deliver-outbox",
    everySeconds: 2,
    run: async () => {
      await deliverOutbox({ now: new Date() });
    },
  },
  {
    // Claimed with SKIP LOCKED and kept in order per instance, so concurrent runs never send one twice at once.
    name: "notify-deliver-webhooks",
    everySeconds: 2,
    run: async () => {
      await deliverWebhooks({ now: new Date() });
    },
  },
  {
    name: "telemetry-ingest-metrics",
    everySeconds: 10,
    run: async () => {
      await ingestMetrics(systemCtx("telemetry"));
    },
  },
  {
    name: "telemetry-rollup-metrics",
    everySeconds: 60,
    run: async () => {
      await rollupMetrics(systemCtx("telemetry"));
    },
  },
  {
    // Raw samples older than FORJA_RAW_SAMPLE_RETENTION_DAYS (default 8) go; rollups keep the history. Deletes
    // are idempotent, so overlapping runs only split the work.
    name: "telemetry-prune-samples",
    everySeconds: 3600,
    timeoutSeconds: 1800,
    run: async () => {
      await pruneRawSamples(systemCtx("telemetry"));
    },
  },
  {
    // Per-organization advisory locks: concurrent runs skip what another is metering.
    name: "metering-meter-usage",
    everySeconds: 30,
    run: async () => {
      await meterUsage(systemCtx("metering"));
    },
  },
  {
    // Alerts are exactly-once by their unique key, so overlapping runs are harmless.
    name: "budgets-evaluate",
    everySeconds: 30,
    run: async () => {
      await evaluateBudgets(systemCtx("policy"), { stop: policyStop });
    },
  },
  {
    name: "autoshutdown-evaluate",
    everySeconds: 30,
    run: async () => {
      await evaluateAutoShutdown(systemCtx("policy"), { stop: policyStop });
    },
  },
];

import { systemCtx } from "@/lib/core";
import { deliverOutbox } from "@/lib/notify";
import { ingestMetrics, rollupMetrics } from "@/lib/telemetry";

export type PeriodicTask = {
  name: string;
  everySeconds: number;
  timeoutSeconds?: number;
  run: () => Promise<void>;
};

/** Every periodic job of the worker. Domains add theirs here. */
export const periodicTasks: PeriodicTask[] = [
  {
    name: "notify-deliver-outbox",
    everySeconds: 2,
    run: async () => {
      await deliverOutbox({ now: new Date() });
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
];

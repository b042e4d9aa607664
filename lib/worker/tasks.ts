import { deliverOutbox } from "@/lib/notify";

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
];

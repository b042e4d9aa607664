import "server-only";
import pg from "pg";
import PgBoss from "pg-boss";
import { type PeriodicTask, periodicTasks } from "./tasks";

export { periodicTasks };

export type WorkerHandle = { stop: () => Promise<void> };

/** How long a pass may run before pg-boss counts its worker dead and retries it (tasks may ask for more). */
export const DEFAULT_TASK_TIMEOUT_SECONDS = 120;

/**
 * The background loop. Periodic tasks are pg-boss jobs: every worker offers a throttled job per task each
 * interval (sendThrottled keys on the task name and time slot), so with several workers each slot runs once,
 * and a crashed worker's job is retried by another. Queues are "stately" (at most one job queued and one
 * running per task, across all workers): a pass slower than its interval is not overlapped by the next one.
 */
export async function startWorker(opts: {
  url: string;
  tasks?: PeriodicTask[];
  log?: (m: string) => void;
  /**
   * How often pg-boss looks for jobs whose worker died (an active job past its task's timeout is failed and
   * retried). A crashed worker's job holds its stately queue until then: up to the timeout plus this.
   */
  maintenanceIntervalSeconds?: number;
}) {
  const log = opts.log ?? ((m: string) => console.log(`[worker] ${m}`));
  const tasks = opts.tasks ?? periodicTasks;
  const boss = new PgBoss({
    connectionString: opts.url,
    schema: "pgboss",
    max: 4,
    // Every 30 s rather than pg-boss's 120 s: with the 120 s default task timeout, a dead worker's task is
    // running again within about 2.5 minutes (the stately queue admits no second job until then).
    maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds ?? 30,
  });
  boss.on("error", (err) => console.error("[worker] pg-boss error", err));
  // Workers started at once on one database (replicas) would otherwise deadlock creating the same queues (each
  // queue is a partition table): schema install and queue set-up happen one worker at a time.
  const lock = new pg.Client({ connectionString: opts.url });
  await lock.connect();
  try {
    await lock.query("select pg_advisory_lock(hashtext('forja:worker-setup'))");
    await boss.start();
    for (const task of tasks) {
      const queue = {
        name: task.name,
        policy: "stately",
        retryLimit: 2,
        expireInSeconds: task.timeoutSeconds ?? DEFAULT_TASK_TIMEOUT_SECONDS,
      } as const;
      await boss.createQueue(task.name, queue);
      // A queue created by an older version (standard policy) is switched over; createQueue leaves it as is.
      await boss.updateQueue(task.name, queue);
    }
  } finally {
    await lock.query("select pg_advisory_unlock(hashtext('forja:worker-setup'))").catch(() => {});
    await lock.end();
  }
  const timers: NodeJS.Timeout[] = [];
  for (const task of tasks) {
    await boss.work(task.name, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async () => {
      await task.run();
    });
    const offer = () =>
      boss
        .sendThrottled(task.name, {}, {}, task.everySeconds, task.name)
        .catch((err) => console.error(`[worker] could not enqueue ${task.name}`, err));
    void offer();
    timers.push(setInterval(offer, Math.max(500, (task.everySeconds * 1000) / 2)));
  }
  log(`started with tasks: ${tasks.map((t) => `${t.name}/${t.everySeconds}s`).join(", ")}`);
  return {
    stop: async () => {
      for (const t of timers) clearInterval(t);
      await boss.stop({ graceful: true, timeout: 5000 });
    },
  } satisfies WorkerHandle;
}

/**
 * The real background worker (pg-boss, lib/worker) in a child process, for the worker crash test
 * (test/crash/worker-crash.test.ts). Runs the periodic tasks named in CRASH_TASKS (comma-separated; their own
 * code, only the timeout shortened to CRASH_EXPIRE_SECONDS so a dead worker's job is retried within the
 * test), with pg-boss maintenance every second. With FORJA_TEST_HOOKS=1 and FORJA_PAUSE_AT=<checkpoint> a pass
 * blocks there, printing FORJA_PAUSED, to be SIGKILLed. SIGTERM stops it gracefully.
 */
import { closeDb } from "@/lib/db/client";
import { startWorker } from "@/lib/worker";
import { periodicTasks } from "@/lib/worker/tasks";

const names = (process.env.CRASH_TASKS ?? "").split(",").filter(Boolean);
const timeoutSeconds = Number(process.env.CRASH_EXPIRE_SECONDS ?? 3);
const tasks = periodicTasks.filter((t) => names.includes(t.name)).map((t) => ({ ...t, timeoutSeconds }));
if (tasks.length !== names.length) throw new Error(`unknown task in ${names.join(",")}`);

const handle = await startWorker({
  url: process.env.DATABASE_URL as string,
  tasks,
  maintenanceIntervalSeconds: 1,
  log: (m) => process.stdout.write(`[worker] ${m}\n`),
});
process.stdout.write("FORJA_WORKER_STARTED\n");
process.on("SIGTERM", () => {
  void handle
    .stop()
    .then(closeDb)
    .then(() => process.exit(0));
});

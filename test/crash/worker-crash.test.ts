import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { and, inArray, isNull, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { gpuAllocations, instances, outbox } from "@/lib/db/schema";
import { enqueueEmail } from "@/lib/notify";
import { startTestSmtp, type TestSmtp, unique, useOwnDatabase } from "@/lib/notify/__tests__/helpers";
import { checkCapacityInvariants, launch } from "@/lib/provisioning";
import { bigQuota, newFleet, newOrg, notebookSpec, testClock } from "@/lib/provisioning/__tests__/fixtures";

/**
 * "No lost job": the real worker process (pg-boss, test/crash/worker.ts) is SIGKILLed in the middle of a job
 * (paused at a checkpoint inside the pass), and a new worker is started on the same database. The killed job
 * stays `active` with nobody running it; pg-boss fails it once its timeout passes and retries it. Shown: that
 * very job then completes (once), every job queued before the kill completes, none ends failed, and the
 * work is done exactly once (each email sent once; each instance booked once on distinct GPUs). Passes read the
 * whole database, so this file has one of its own.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
// Each case starts two worker processes (tsx, pg-boss set-up): on a loaded machine that alone takes a minute.
const SLOW = 300_000;
let smtp: TestSmtp;
let dropDb: () => Promise<void>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dropDb = await useOwnDatabase();
  smtp = await startTestSmtp();
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});
afterAll(async () => {
  await smtp.stop();
  await dropDb();
});

type Worker = {
  child: ChildProcess;
  until: (re: RegExp, ms?: number) => Promise<void>;
  exited: Promise<unknown>;
};

function worker(tasks: string[], pauseAt?: string): Worker {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "test/crash/worker.ts"],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "test",
        SMTP_URL: smtp.url,
        CRASH_TASKS: tasks.join(","),
        FORJA_TEST_HOOKS: pauseAt ? "1" : "",
        FORJA_PAUSE_AT: pauseAt ?? "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  let out = "";
  const append = (d: Buffer) => {
    out += d.toString();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise((r) => child.on("exit", r));
  const until = (re: RegExp, ms = 120_000) =>
    new Promise<void>((resolve, reject) => {
      const t0 = Date.now();
      const look = setInterval(() => {
        if (re.test(out)) {
          clearInterval(look);
          resolve();
        } else if (Date.now() - t0 > ms || child.exitCode !== null) {
          clearInterval(look);
          reject(new Error(`worker never printed ${re}:\n${out.slice(-3000)}`));
        }
      }, 100);
    });
  return { child, until, exited };
}

type Job = { id: string; state: string; retry_count: number };
const jobs = async (name: string): Promise<Job[]> =>
  (
    await getDb().execute<Job>(
      sql`select id, state, retry_count from pgboss.job where name = ${name} order by created_on, id`,
    )
  ).rows;

async function waitFor<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 120_000) {
  const t0 = Date.now();
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Kill a worker paused inside `task`'s pass; the jobs of that task as the kill left them. */
async function killMidJob(task: string, checkpoint: string) {
  const w = worker([task], checkpoint);
  await w.until(new RegExp(`FORJA_PAUSED ${checkpoint.replace(".", "\\.")}`));
  w.child.kill("SIGKILL");
  await w.exited;
  const left = await jobs(task);
  const orphan = left.find((j) => j.state === "active");
  if (!orphan) throw new Error(`no active job left by the killed worker: ${JSON.stringify(left)}`);
  return { orphan, before: left };
}

/** Restart, until the killed job and every job queued before the kill have completed; then stop gracefully. */
async function restartUntilDone(task: string, before: Job[]) {
  const w = worker([task]);
  const t0 = Date.now();
  const ids = new Set(before.map((j) => j.id));
  const after = await waitFor(
    "the killed and the queued jobs to complete",
    () => jobs(task),
    (rows) => rows.filter((j) => ids.has(j.id) && j.state === "completed").length === ids.size,
  );
  const recoveredMs = Date.now() - t0;
  w.child.kill("SIGTERM");
  await w.exited;
  return { after, recoveredMs };
}

describe("crash test: the pg-boss worker process SIGKILLed mid-job, then a new worker started", () => {
  it(
    "outbox delivery killed after claiming: the job is retried and completes, every email sent exactly once",
    async () => {
      await getDb().delete(outbox);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const id = await enqueueEmail(getDb(), { to: unique("wcrash"), subject: `Hello ${i}`, text: "Hi" });
        if (!id) throw new Error("not enqueued");
        ids.push(id);
      }
      const task = "notify-deliver-outbox";
      const { orphan, before } = await killMidJob(task, "outbox.claimed");
      expect(smtp.received).toHaveLength(0);

      const { after, recoveredMs } = await restartUntilDone(task, before);
      expect(after.find((j) => j.id === orphan.id)).toMatchObject({ state: "completed", retry_count: 1 });
      expect(after.filter((j) => j.state === "failed")).toEqual([]);
      const sent = await waitFor(
        "every email sent",
        () => getDb().select().from(outbox),
        (rows) => rows.every((r) => r.status === "sent"),
      );
      expect(sent.map((r) => r.attempts)).toEqual([1, 1, 1]);
      expect(smtp.received.map((m) => m.messageId).sort()).toEqual(
        ids.map((id) => `<${id}@forja.localhost>`).sort(),
      );
      console.log(`[worker crash] outbox job recovered ${recoveredMs} ms after the restart`);
    },
    SLOW,
  );

  it(
    "the scheduler killed after placing (uncommitted): the job is retried, each instance booked once on distinct GPUs",
    async () => {
      const fleet = await newFleet([{ gpus: 8 }]);
      const o = await newOrg("wcrash", testClock(new Date()));
      await bigQuota(o.org.id, fleet.region);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const spec = notebookSpec(fleet.region, { instanceType: "h100.2x" });
        ids.push((await launch(o.ctx, o.slug, spec)).instance.id);
      }
      const task = "provisioning-schedule";
      const { orphan, before } = await killMidJob(task, "scheduler.placed");
      const live = () =>
        getDb()
          .select()
          .from(gpuAllocations)
          .where(and(inArray(gpuAllocations.instanceId, ids), isNull(gpuAllocations.releasedAt)));
      expect(await live()).toEqual([]);

      const { after } = await restartUntilDone(task, before);
      expect(after.find((j) => j.id === orphan.id)).toMatchObject({ state: "completed", retry_count: 1 });
      expect(after.filter((j) => j.state === "failed")).toEqual([]);
      const states = await getDb()
        .select({ s: instances.state })
        .from(instances)
        .where(inArray(instances.id, ids));
      expect(states.map((r) => r.s)).toEqual(["provisioning", "provisioning", "provisioning"]);
      const rows = await live();
      expect(rows).toHaveLength(6);
      expect(new Set(rows.map((r) => r.nodeGpuId)).size).toBe(6);
      expect(await checkCapacityInvariants(getDb(), { regionCode: fleet.region })).toEqual([]);
    },
    SLOW,
  );
});

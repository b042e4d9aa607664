import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import {
  checkCapacityInvariants,
  launch,
  loadInstanceDetail,
  type QueueInsight,
  queueInsight,
  terminate,
} from "@/lib/provisioning";
import { jobOf, orgWithQuota, type SlurmWorld, startSlurmWorld, stateOf, until } from "./support";

// A real cluster under a loaded 2-core CI box: a job can take longer than the suite's 60 s default to go
// through sbatch → RUNNING → Forja's passes; until() (90 s) should be the one that says what it waited for.
vi.setConfig({ testTimeout: 180_000 });

let w: SlurmWorld;
let org: Awaited<ReturnType<typeof orgWithQuota>>;

beforeAll(async () => {
  w = await startSlurmWorld();
  org = await orgWithQuota(w, "slurm-cap", 200);
}, 120_000);

afterAll(async () => {
  await w?.stop();
});

const sleeper = (over: Record<string, unknown> = {}) => ({
  kind: "container",
  name: `ct-${Math.random().toString(36).slice(2, 8)}`,
  project: "default",
  region: w.regionA,
  instanceType: "h100.1x",
  pricingModel: "on_demand",
  image: "pytorch-2.5-cuda12.4",
  command: "sleep",
  args: ["600"],
  ...over,
});

async function terminateAll(ids: string[]) {
  for (const id of ids) {
    const s = await stateOf(id);
    if (["queued", "provisioning", "running", "stopped", "preempted"].includes(s.state))
      await terminate(org.ctx, org.slug, id);
  }
  await until(w, "no live job left", async () => {
    const live = w.cluster.cmd("squeue", ["-h", "-t", "PD,R,CG", "-o", "%i"]).trim();
    return live === "";
  });
}

describe("Slurm places; Forja follows", () => {
  it("a job waiting for a full cluster shows Slurm's queue position and expected start (squeue --start)", async () => {
    // Both nodes held for 30 minutes (their time limits), so Slurm's backfill plans the waiting jobs' starts.
    const holders: string[] = [];
    for (let i = 0; i < 2; i++)
      holders.push(
        (await launch(org.ctx, org.slug, sleeper({ instanceType: "h100.8x", maxRuntimeMinutes: 30 })))
          .instance.id,
      );
    await until(w, "both nodes held", async () => {
      for (const id of holders) if ((await stateOf(id)).state !== "running") return false;
      return true;
    });
    const first = (await launch(org.ctx, org.slug, sleeper({ instanceType: "h100.8x" }))).instance.id;
    const second = (await launch(org.ctx, org.slug, sleeper({ instanceType: "h100.8x" }))).instance.id;
    try {
      const insights = await until(w, "both waiting with an expected start", async () => {
        const a = await queueInsight(org.ctx, org.slug, first);
        const b = await queueInsight(org.ctx, org.slug, second);
        return a.estimate?.etaSeconds != null && b.estimate?.etaSeconds != null ? [a, b] : null;
      });
      const [a, b] = insights as [QueueInsight, QueueInsight];
      // Slurm's order (priority, then job id), not Forja's launch order: both are ranked, one after the other.
      expect([a.position, b.position].sort()).toEqual([1, 2]);
      expect([a.estimate?.method, b.estimate?.method]).toEqual(["cluster", "cluster"]);
      // squeue --start's StartTime for each job, as Forja holds it.
      const start = (ref: string) =>
        Date.parse(`${w.cluster.cmd("squeue", ["--start", "-h", "-j", ref, "-o", "%S"]).trim()}Z`);
      for (const [id, insight] of [
        [first, a],
        [second, b],
      ] as const) {
        const ref = (await stateOf(id)).provider_ref as string;
        const expected = (start(ref) - Date.now()) / 1000;
        expect(insight.estimate?.etaSeconds).toBeGreaterThan(25 * 60);
        expect(Math.abs((insight.estimate?.etaSeconds ?? 0) - expected)).toBeLessThan(60);
      }
      // The instance detail (console and API) carries the same insight.
      const detail = await loadInstanceDetail(org.ctx, org.slug, first);
      expect(detail.queue).toMatchObject({ position: a.position, method: "cluster" });
    } finally {
      await terminateAll([...holders, first, second]);
    }
  }, 180_000);

  it("a spot job preempted by on-demand work (PreemptMode=REQUEUE) is preempted and auto-recovers", async () => {
    const spot = await launch(
      org.ctx,
      org.slug,
      sleeper({ instanceType: "h100.8x", pricingModel: "spot", autoRecover: true }),
    );
    const first = await until(w, "spot running", async () => {
      const s = await stateOf(spot.instance.id);
      return s.state === "running" ? s : null;
    });
    const onDemand: string[] = [];
    for (let i = 0; i < 2; i++)
      onDemand.push((await launch(org.ctx, org.slug, sleeper({ instanceType: "h100.8x" }))).instance.id);
    const back = await until(w, "spot back in the queue", async () => {
      const s = await stateOf(spot.instance.id);
      return s.state === "queued" ? s : null;
    });
    const path = await getDb().execute<{ to_state: string }>(
      sql`select to_state from instance_events where instance_id = ${spot.instance.id} order by id`,
    );
    expect(path.rows.map((r) => r.to_state)).toEqual([
      "requested",
      "queued",
      "provisioning",
      "running",
      "preempting",
      "preempted",
      "queued",
    ]);
    // The same job, requeued by Slurm, is what Forja keeps following.
    expect(back.provider_ref).toBe(first.provider_ref);
    expect(jobOf(w, back.provider_ref as string).state).toBe("PENDING");
    await until(w, "on-demand running", async () => {
      for (const id of onDemand) if ((await stateOf(id)).state !== "running") return false;
      return true;
    });
    await terminateAll([spot.instance.id, ...onDemand]);
  }, 180_000);

  it("a node set down on the cluster fails its instance", async () => {
    const { instance } = await launch(org.ctx, org.slug, sleeper());
    const s = await until(w, "running", async () => {
      const x = await stateOf(instance.id);
      return x.state === "running" ? x : null;
    });
    const node = jobOf(w, s.provider_ref as string).node as string;
    w.cluster.cmd("scontrol", ["update", `NodeName=${node}`, "State=DOWN", "Reason=PSU failure"]);
    const failed = await until(w, "failed", async () => {
      const x = await stateOf(instance.id);
      return x.state === "failed" ? x : null;
    });
    expect(failed.state_reason).toBe(`Node ${node}.${w.cluster.clusterName} failed`);
    // The test cluster has ReturnToService=2: the node is back as soon as its slurmd registers again.
  }, 180_000);

  it("50 concurrent launches never place more GPUs than the cluster has; Slurm's and Forja's views agree", async () => {
    const launched = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        launch(org.ctx, org.slug, sleeper({ instanceType: i % 3 === 0 ? "h100.2x" : "h100.1x" })),
      ),
    );
    const ids = launched.map((l) => l.instance.id);
    const gpusOf = (id: string) => launched.find((l) => l.instance.id === id)?.instance.gpuCount ?? 0;
    // Until the cluster is full: 16 GPUs on two nodes, the rest pending.
    await until(w, "cluster full", async () => {
      const rows = await getDb().execute<{ id: string }>(
        sql`select id from instances where id = any(${`{${ids.join(",")}}`}::uuid[]) and state = 'running'`,
      );
      return rows.rows.reduce((n, r) => n + gpusOf(r.id), 0) >= 15 ? rows : null;
    });
    await w.pass();
    const slurmUsed = w.cluster
      .cmd("sinfo", ["-N", "-h", "-p", w.cluster.partitions.regionA, "-O", "NodeList:40,GresUsed:80"])
      .trim()
      .split("\n")
      .map((l) => {
        const [node, used] = l.trim().split(/\s+/);
        return [
          `${node}.${w.cluster.clusterName}`,
          Number(/gpu:h100:(\d+)/.exec(used ?? "")?.[1] ?? 0),
        ] as const;
      })
      .sort();
    const forjaUsed = await getDb().execute<{ name: string; gpus: number }>(sql`
      select n.name, count(a.id)::int as gpus from nodes n
      left join gpu_allocations a on a.node_id = n.id and a.released_at is null
      where n.region_code = ${w.regionA} group by n.name order by n.name`);
    expect(forjaUsed.rows.map((r) => [r.name, r.gpus])).toEqual(slurmUsed);
    expect(slurmUsed.reduce((n, [, g]) => n + g, 0)).toBeLessThanOrEqual(16);
    expect(await checkCapacityInvariants(getDb(), { regionCode: w.regionA })).toEqual([]);
    const pending = await getDb().execute<{ n: number; reasons: string[] }>(sql`
      select count(*)::int as n, array_agg(distinct state_reason) as reasons from instances
      where id = any(${`{${ids.join(",")}}`}::uuid[]) and state = 'queued'`);
    expect(pending.rows[0]?.n).toBeGreaterThan(0);
    expect(pending.rows[0]?.reasons.join(" ")).toMatch(
      /Waiting in the cluster's queue \((Resources|Priority)\)/,
    );
    await terminateAll(ids);
  }, 240_000);
});

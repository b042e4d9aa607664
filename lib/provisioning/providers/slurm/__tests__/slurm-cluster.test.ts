import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createBudget } from "@/lib/budgets";
import { QuotaExceededError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { activateNode, drainNode, launch, stop, terminate } from "@/lib/provisioning";
import { ingestMetrics, instanceLogs } from "@/lib/telemetry";
import { jobOf, orgWithQuota, type SlurmWorld, startSlurmWorld, stateOf, until } from "./support";

// A real cluster under a loaded 2-core CI box: a job can take longer than the suite's 60 s default to go
// through sbatch → RUNNING → Forja's passes; until() (90 s) should be the one that says what it waited for.
vi.setConfig({ testTimeout: 180_000 });

let w: SlurmWorld;
let org: Awaited<ReturnType<typeof orgWithQuota>>;
/** Launched first, checked last: Slurm ends it at its 1-minute time limit while the other tests run. */
let timed: string;

const container = (region: string, over: Record<string, unknown> = {}) => ({
  kind: "container",
  name: `ct-${Math.random().toString(36).slice(2, 8)}`,
  project: "default",
  region,
  instanceType: "h100.1x",
  pricingModel: "on_demand",
  image: "pytorch-2.5-cuda12.4",
  command: "bash",
  args: ["-c", "echo hello from slurm; echo warming up >&2; sleep 600"],
  ...over,
});

beforeAll(async () => {
  w = await startSlurmWorld();
  org = await orgWithQuota(w, "slurm");
  // On the MIG node of region B: a 1g.10gb slice, so MIG GRES submission is exercised too.
  const t = await launch(
    org.ctx,
    org.slug,
    container(w.regionB, { instanceType: "a100-80gb.mig-1g.10gb", maxRuntimeMinutes: 1 }),
  );
  timed = t.instance.id;
}, 120_000);

afterAll(async () => {
  await w?.stop();
});

async function nodesOf(region: string) {
  const r = await getDb().execute<{
    name: string;
    status: string;
    gpu_model_id: string;
    gpu_count: number;
    mig: number;
  }>(sql`
    select n.name, n.status, n.gpu_model_id, n.gpu_count,
      (select count(*)::int from node_gpus g where g.node_id = n.id and g.mig_enabled) as mig
    from nodes n where n.region_code = ${region} order by n.name`);
  return r.rows;
}

describe("Slurm provider on a real cluster", () => {
  it("discovers nodes, GPU types and counts (MIG profiles as GRES types), and a drain done on the cluster", async () => {
    await w.pass();
    const [a1, a2] = w.cluster.nodes;
    const a = await nodesOf(w.regionA);
    expect(a.map((n) => [n.name, n.gpu_model_id, n.gpu_count, n.status])).toEqual([
      [`${a1}.${w.cluster.clusterName}`, "h100", 8, "active"],
      [`${a2}.${w.cluster.clusterName}`, "h100", 8, "active"],
    ]);
    // 2 × 3g.40gb + 3 × 1g.10gb = 9 compute slices: two A100 boards in MIG mode.
    const b = await nodesOf(w.regionB);
    expect(b.map((n) => [n.gpu_model_id, n.gpu_count, n.mig])).toEqual([["a100-80gb", 2, 2]]);

    w.cluster.cmd("scontrol", ["update", `NodeName=${a2}`, "State=DRAIN", "Reason=maintenance"]);
    await w.pass();
    expect((await nodesOf(w.regionA)).map((n) => n.status)).toEqual(["active", "draining"]);
    // Right after RESUME Slurm may report the node "idle*" (not responding) until its next ping: down till then.
    w.cluster.cmd("scontrol", ["update", `NodeName=${a2}`, "State=RESUME"]);
    await until(w, "node back", async () => (await nodesOf(w.regionA)).every((n) => n.status === "active"));
  });

  it("an operator's drain in Forja is applied on the cluster (scontrol update)", async () => {
    const [a1] = w.cluster.nodes;
    const row = await getDb().execute<{ id: string }>(
      sql`select id from nodes where name = ${`${a1}.${w.cluster.clusterName}`}`,
    );
    const op = {
      actor: { kind: "user" as const, userId: org.user.id, email: "op@example.test", isOperator: true },
    };
    await drainNode(op, row.rows[0]?.id as string);
    expect(
      w.cluster
        .cmd("sinfo", ["-h", "-n", a1 as string, "-o", "%T"])
        .trim()
        .split("\n")[0],
    ).toMatch(/drain/);
    await activateNode(op, row.rows[0]?.id as string);
    expect(
      w.cluster
        .cmd("sinfo", ["-h", "-n", a1 as string, "-o", "%T"])
        .trim()
        .split("\n")[0],
    ).toMatch(/^idle\*?$/);
  });

  it("launches a container as a job: running, logs from its output, GPU metrics, stop = scancel, then terminate", async () => {
    const { instance } = await launch(org.ctx, org.slug, container(w.regionA, { instanceType: "h100.2x" }));
    const running = await until(w, "container running", async () => {
      const s = await stateOf(instance.id);
      return s.state === "running" ? s : null;
    });
    const job = jobOf(w, running.provider_ref as string);
    expect(job.state).toBe("RUNNING");
    expect(job.gres).toBe("gres:gpu:h100:2");
    const alloc = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from gpu_allocations where instance_id = ${instance.id} and released_at is null`,
    );
    expect(alloc.rows[0]?.n).toBe(2);

    const logs = await until(w, "both log lines", async () => {
      const l = await instanceLogs(org.ctx, org.slug, instance.id);
      return l.lines.length >= 2 ? l : null;
    });
    expect(logs.lines.map((l) => [l.stream, l.text])).toEqual(
      expect.arrayContaining([
        ["stdout", "hello from slurm"],
        ["stderr", "warming up"],
      ]),
    );

    // The stand-in nvidia-smi prints the recorded 8 × H100 output; the job holds 2 of the node's GPUs.
    await ingestMetrics({ actor: { kind: "system", name: "telemetry" } }, { now: new Date() });
    const samples = await getDb().execute<{
      gpu_index: number;
      utilization_pct: number;
      power_watts: number;
    }>(
      sql`select gpu_index, utilization_pct, power_watts from metric_samples where instance_id = ${instance.id} order by gpu_index`,
    );
    expect(samples.rows.length).toBe(2);
    expect(samples.rows.every((s) => s.power_watts > 0)).toBe(true);

    await stop(org.ctx, org.slug, instance.id);
    await until(w, "stopped", async () => (await stateOf(instance.id)).state === "stopped");
    expect(jobOf(w, running.provider_ref as string).state).toBe("CANCELLED");
    // Terminating a stopped instance: its job is already over, so nothing is left to wait for on the cluster.
    await terminate(org.ctx, org.slug, instance.id);
    await until(w, "terminated", async () => (await stateOf(instance.id)).state === "terminated");
  });

  it("a notebook job runs Jupyter, which answers with its token (and refuses without)", async () => {
    const { instance } = await launch(org.ctx, org.slug, {
      ...container(w.regionA),
      kind: "notebook",
      command: null,
      args: null,
    });
    await until(w, "notebook running", async () => (await stateOf(instance.id)).state === "running", 60_000);
    const row = await getDb().execute<{ connection: Record<string, string> }>(
      sql`select connection from instances where id = ${instance.id}`,
    );
    const { url, token } = row.rows[0]?.connection ?? {};
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/tree$/);
    expect(url).not.toContain(token as string);
    const status = new URL("/api/status", url).toString();
    expect((await fetch(status, { headers: { authorization: `token ${token}` } })).status).toBe(200);
    expect((await fetch(status)).status).toBe(403);
    await terminate(org.ctx, org.slug, instance.id);
    await until(w, "terminated", async () => (await stateOf(instance.id)).state === "terminated");
  });

  it("quota and budget refusals never reach the cluster", async () => {
    const jobsBefore = w.cluster.cmd("squeue", ["-h", "-t", "all", "-o", "%i"]).trim().split("\n").length;
    const small = await orgWithQuota(w, "slurm-quota", 1);
    const err = await launch(small.ctx, small.slug, container(w.regionA, { instanceType: "h100.2x" })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(QuotaExceededError);

    const broke = await orgWithQuota(w, "slurm-budget");
    await createBudget(broke.ctx, broke.slug, { name: "Cap", amountUsd: 1, actionAt100: "block_launches" });
    const now = new Date();
    await getDb().execute(sql`
      insert into usage_records (org_id, project_id, kind, region_code, period_start, period_end, seconds, quantity,
        unit, unit_price, amount, created_at)
      values (${broke.org.id}, ${broke.project.id}, 'compute', ${w.regionA}, ${now}, ${now}, 3600, 1, 'hour', 50, 50,
        ${now})`);
    const err2 = await launch(broke.ctx, broke.slug, container(w.regionA)).catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(QuotaExceededError);
    expect((err2 as Error).message).toMatch(/budget 'Cap'/);

    await w.pass();
    const jobsAfter = w.cluster.cmd("squeue", ["-h", "-t", "all", "-o", "%i"]).trim().split("\n").length;
    expect(jobsAfter).toBe(jobsBefore);
    const rows = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from instances where org_id in (${small.org.id}, ${broke.org.id})`,
    );
    expect(rows.rows[0]?.n).toBe(0);
  });

  it("a job past its time limit (Slurm's TIMEOUT) becomes Forja's max-runtime stop", async () => {
    const s = await until(
      w,
      "the timed job stopped",
      async () => {
        const x = await stateOf(timed);
        return x.state === "stopped" ? x : null;
      },
      150_000,
    );
    expect(s.state_reason).toBe("Stopped after its maximum runtime of 1 minutes");
    const ev = await getDb().execute<{ reason: string; actor_kind: string }>(
      sql`select reason, actor_kind from instance_events where instance_id = ${timed} and to_state = 'stopping'`,
    );
    expect(ev.rows).toEqual([{ reason: "Reached its maximum runtime of 1 minutes", actor_kind: "policy" }]);
    // Slurm ended it (TIMEOUT), not Forja's own max-runtime pass (that would have cancelled it).
    expect(w.cluster.cmd("squeue", ["-h", "-t", "all", "-n", `forja-${timed}`, "-o", "%T %b"]).trim()).toBe(
      "TIMEOUT gres:gpu:a100_1g.10gb:1",
    );
  }, 180_000);
});

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  jobOf,
  orgWithQuota,
  type SlurmWorld,
  startSlurmWorld,
} from "@/lib/provisioning/providers/slurm/__tests__/support";
import {
  autoscaleServices,
  createReplicaHost,
  createService,
  type Gateway,
  startGateway,
  updateServiceScaling,
} from "@/lib/services";
import { runLoops, waitFor } from "./harness";

// A real Slurm cluster on a loaded 2-core box: sbatch → RUNNING → the passes → the probe can take a while.
vi.setConfig({ testTimeout: 240_000, hookTimeout: 120_000 });

let w: SlurmWorld;
let gateway: Gateway;
let stopLoops: () => Promise<void>;
let hostRef: ReturnType<typeof createReplicaHost>;

beforeAll(async () => {
  w = await startSlurmWorld();
  gateway = await startGateway({ holdTimeoutMs: 150_000, refreshMs: 150 });
  hostRef = createReplicaHost({ regionCode: w.regionA });
  stopLoops = runLoops([
    [500, () => w.pass()],
    [300, () => hostRef.pass()],
    [1000, () => autoscaleServices(systemCtx("autoscaler"), { regionCode: w.regionA })],
  ]);
});
afterAll(async () => {
  await stopLoops?.();
  await gateway?.close();
  await hostRef?.close();
  await w?.stop();
});

type Replica = {
  id: string;
  instance_id: string;
  ended_at: string | null;
  ready_at: string | null;
  endpoint: string | null;
  job: string | null;
};
async function replicas(serviceId: string): Promise<Replica[]> {
  const r = await getDb().execute<Replica>(sql`
    select r.id, r.instance_id, r.ended_at, r.ready_at, r.endpoint, i.provider_ref as job
    from service_replicas r join instances i on i.id = r.instance_id
    where r.service_id = ${serviceId} order by r.ordinal`);
  return r.rows;
}

/** The states of every job Slurm ran for an instance (named forja-<instance id>). */
const jobsOf = (instanceId: string) =>
  w.cluster
    .cmd("squeue", ["-h", "-t", "all", `--name=forja-${instanceId}`, "-o", "%T"])
    .trim()
    .split("\n")
    .filter(Boolean);

describe("services on Slurm: a replica is a job running the service's command", () => {
  it("scales 0 → 1 on a request served through the job, gives replicas their own ports, and cancels jobs at 0", async () => {
    const org = await orgWithQuota(w, "slurm-svc");
    const { service } = await createService({ ...org.ctx, now: () => new Date() }, org.slug, {
      name: `web-${Math.random().toString(36).slice(2, 8)}`,
      image: "pytorch-2.5-cuda12.4",
      // The job's PORT (also FORJA_PORT) is its own: the command must listen there.
      command: "bash",
      args: ["-c", 'exec /usr/bin/python3 -m http.server "$PORT"'],
      instanceType: "h100.1x",
      region: w.regionA,
      port: 8000,
      minReplicas: 0,
      maxReplicas: 2,
      metric: "concurrency",
      target: 4,
      scaleUpDelaySeconds: 0,
      scaleDownDelaySeconds: 2,
      scaleToZeroGraceSeconds: 5,
      readiness: { path: "/", intervalSeconds: 2, timeoutSeconds: 2 },
      auth: "public",
    });
    expect(await replicas(service.id)).toEqual([]);

    // A request to a service at zero is held while a job starts; it is answered by python's http.server.
    const res = await fetch(`${gateway.url}/${org.slug}/s/${service.name}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Directory listing");
    const [first] = await replicas(service.id);
    expect(first?.ready_at).not.toBeNull();
    expect(first?.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(jobOf(w, first?.job as string).state).toBe("RUNNING");

    // Two replicas on the one host of region A: each job has its own port.
    await updateServiceScaling({ ...org.ctx, now: () => new Date() }, org.slug, service.id, {
      minReplicas: 2,
    });
    const two = await waitFor(
      "two ready replicas",
      async () => {
        const live = (await replicas(service.id)).filter((r) => !r.ended_at && r.ready_at);
        return live.length === 2 ? live : null;
      },
      150_000,
    );
    expect(new Set(two.map((r) => r.endpoint)).size).toBe(2);
    for (const r of two) expect((await fetch(`${r.endpoint}/`)).status).toBe(200);

    // Back to min 0 and no traffic: after the grace period both replicas end and their jobs are cancelled.
    await updateServiceScaling({ ...org.ctx, now: () => new Date() }, org.slug, service.id, {
      minReplicas: 0,
    });
    await waitFor(
      "every replica ended and every job it ran cancelled",
      async () => {
        const all = await replicas(service.id);
        return all.every((r) => r.ended_at && jobsOf(r.instance_id).every((st) => st === "CANCELLED"));
      },
      150_000,
    );
    for (const r of two) expect(jobOf(w, r.job as string).state).toBe("CANCELLED");
    for (const r of two) await expect(fetch(`${r.endpoint}/`)).rejects.toThrow();
  });
});

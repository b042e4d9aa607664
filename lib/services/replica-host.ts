import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { serviceReplicas } from "@/lib/db/schema";
import { getProvider, terminate } from "@/lib/provisioning";
import { recordServiceEvent } from "./events";
import {
  type ModelServer,
  type ModelServerOptions,
  modelServerDefaults,
  startModelServer,
} from "./model-server";

/** Consecutive failed probes after which a ready replica is replaced. */
export const UNHEALTHY_AFTER = 3;

type Hosted = {
  /** The simulated replica's server in this process; none for an engine's replica (a job on a cluster). */
  server: ModelServer | null;
  /** Where the replica is reached: the loopback server, or the endpoint the engine reported. */
  url: string;
  replicaId: string;
  serviceId: string;
  orgId: string;
  orgSlug: string;
  instanceId: string;
  ordinal: number;
  startedAt: number;
  ready: boolean;
  failures: number;
  probe: { path: string; intervalMs: number; timeoutMs: number };
  nextProbeAt: number;
};

type Row = {
  id: string;
  service_id: string;
  org_id: string;
  org_slug: string;
  instance_id: string;
  ordinal: number;
  region_code: string;
  /** The instance's connection `endpoint` (engine replicas: the node and port the job reported). */
  endpoint: string | null;
  readiness: { path: string; intervalSeconds: number; timeoutSeconds: number };
};

/**
 * The replica host: for every replica whose instance is running in a simulated region, a model server on
 * loopback (model-server.ts) is started in this process and its address recorded; for a replica run by an
 * engine (a Slurm job running the service's command), the address is the one the job reported in the
 * instance's connection (`endpoint`). The host is also the replicas' kubelet — it probes readiness as the
 * service asks (ready_at = the first answer: the end of the cold start), replaces a ready replica that fails
 * UNHEALTHY_AFTER probes in a row (its instance is terminated: the engine cancels the job), and closes the
 * servers of replicas that ended. One host per deployment (the services process).
 */
export function createReplicaHost(opts: { regionCode?: string; server?: Partial<ModelServerOptions> } = {}) {
  const hosted = new Map<string, Hosted>();
  let busy = false;

  async function pass(): Promise<void> {
    if (busy) return;
    busy = true;
    try {
      await syncServers();
      await probeAll();
    } finally {
      busy = false;
    }
  }

  async function syncServers() {
    const db = getDb();
    const res = await db.execute<Row>(sql`
      select r.id, r.service_id, r.org_id, o.slug as org_slug, r.instance_id, r.ordinal, i.region_code,
             i.connection->>'endpoint' as endpoint, s.spec->'readiness' as readiness
      from service_replicas r
      join instances i on i.id = r.instance_id
      join services s on s.id = r.service_id
      join organizations o on o.id = r.org_id
      where r.ended_at is null and i.state = 'running'
        and (${opts.regionCode ?? null}::text is null or i.region_code = ${opts.regionCode ?? null})`);
    const want = new Map<string, Row>();
    const engineRun = new Set<string>();
    for (const r of res.rows) {
      const provider = getProvider(r.region_code);
      if (provider.name === "simulated") want.set(r.id, r);
      else if (provider.placement === "cluster" && r.endpoint) {
        // An engine's replica (a Slurm job running the service's command), once it reported where it listens.
        want.set(r.id, r);
        engineRun.add(r.id);
      }
    }
    for (const [id, h] of hosted) {
      if (!want.has(id)) {
        hosted.delete(id);
        void h.server?.close();
      }
    }
    for (const [id, r] of want) {
      if (hosted.has(id)) continue;
      const server = engineRun.has(id)
        ? null
        : await startModelServer({ ...modelServerDefaults(), ...opts.server, name: `replica-${r.ordinal}` });
      const url = server?.url ?? (r.endpoint as string);
      const now = Date.now();
      hosted.set(id, {
        server,
        url,
        replicaId: id,
        serviceId: r.service_id,
        orgId: r.org_id,
        orgSlug: r.org_slug,
        instanceId: r.instance_id,
        ordinal: r.ordinal,
        startedAt: now,
        ready: false,
        failures: 0,
        probe: {
          path: r.readiness.path,
          intervalMs: r.readiness.intervalSeconds * 1000,
          timeoutMs: r.readiness.timeoutSeconds * 1000,
        },
        nextProbeAt: now,
      });
      await db
        .update(serviceReplicas)
        .set({ endpoint: url, startedAt: new Date(now), readyAt: null })
        .where(eq(serviceReplicas.id, id));
    }
  }

  async function probeOnce(h: Hosted): Promise<boolean> {
    try {
      const r = await fetch(`${h.url}${h.probe.path}`, {
        signal: AbortSignal.timeout(h.probe.timeoutMs),
      });
      await r.arrayBuffer();
      return r.ok;
    } catch {
      return false;
    }
  }

  async function probeAll() {
    const now = Date.now();
    const due = [...hosted.values()].filter((h) => h.nextProbeAt <= now);
    await Promise.all(
      due.map(async (h) => {
        // Before the first success, probe often so a cold start ends when the model is loaded, not an interval later.
        h.nextProbeAt = now + (h.ready ? h.probe.intervalMs : Math.min(500, h.probe.intervalMs));
        const ok = await probeOnce(h);
        if (ok) {
          h.failures = 0;
          if (h.ready) return;
          h.ready = true;
          const at = new Date();
          await getDb().transaction(async (tx) => {
            await tx
              .update(serviceReplicas)
              .set({ readyAt: at })
              .where(and(eq(serviceReplicas.id, h.replicaId), isNull(serviceReplicas.endedAt)));
            await recordServiceEvent(tx, {
              orgId: h.orgId,
              serviceId: h.serviceId,
              at,
              code: "replica_ready",
              params: {
                ordinal: h.ordinal,
                coldStartSeconds: Math.round((at.getTime() - h.startedAt) / 100) / 10,
              },
            });
          });
          return;
        }
        if (!h.ready) return;
        h.failures += 1;
        if (h.failures >= UNHEALTHY_AFTER) await replaceUnhealthy(h);
      }),
    );
  }

  async function replaceUnhealthy(h: Hosted) {
    hosted.delete(h.replicaId);
    h.server?.kill();
    const at = new Date();
    await getDb().transaction(async (tx) => {
      const [ended] = await tx
        .update(serviceReplicas)
        .set({ endedAt: at, endReason: "unhealthy" })
        .where(and(eq(serviceReplicas.id, h.replicaId), isNull(serviceReplicas.endedAt)))
        .returning({ id: serviceReplicas.id });
      if (!ended) return;
      await recordServiceEvent(tx, {
        orgId: h.orgId,
        serviceId: h.serviceId,
        at,
        code: "replica_unhealthy",
        params: { ordinal: h.ordinal, failures: h.failures },
      });
      await terminate({ ...systemCtx("services"), tx }, h.orgSlug, h.instanceId);
    });
  }

  return {
    pass,
    /** Crash a replica's server (tests, chaos): connections reset, probes fail, the host replaces it. */
    kill(replicaId: string) {
      hosted.get(replicaId)?.server?.kill();
    },
    hostedIds: () => [...hosted.keys()],
    async close() {
      await Promise.all([...hosted.values()].map((h) => h.server?.close()));
      hosted.clear();
    },
  };
}
export type ReplicaHost = ReturnType<typeof createReplicaHost>;

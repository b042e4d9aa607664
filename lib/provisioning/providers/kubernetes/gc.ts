import "server-only";
import { inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { instances } from "@/lib/db/schema";
import { deletePod } from "./apply";
import { call } from "./client";
import { LABEL, managedSelector, runOf } from "./names";
import { LIVE_STATES } from "./records";
import type { RegionRuntime } from "./runtime";

/** Full sweeps of disks, services and secrets: on a runtime's first pass (after a crash) and every N passes. */
export const SWEEP_EVERY_PASSES = 30;
const LIVE = new Set<string>(LIVE_STATES);
const HOLDS_DISK = new Set<string>([...LIVE_STATES, "stopped", "preempted"]);

type Meta = {
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    deletionTimestamp?: unknown;
  };
};

/**
 * Garbage collection by label: a pod whose instance is gone, over, or on a newer run (a requeue), and — in a
 * sweep — services/secrets of instances that are not live and disks of instances that will never start again.
 * Such leftovers come from a worker that died between the cluster's write and Forja's commit.
 */
export async function collectGarbage(db: Executor, rt: RegionRuntime): Promise<number> {
  const sweep = (rt.passes ?? 0) % SWEEP_EVERY_PASSES === 0;
  rt.passes = (rt.passes ?? 0) + 1;
  const pods = [...(rt.watch?.pods.values() ?? [])] as Meta[];
  const sel = managedSelector(rt.cfg.region);
  const others: Array<{ kind: "services" | "secrets" | "pvcs"; items: Meta[] }> = [];
  if (sweep) {
    others.push({
      kind: "services",
      items: (await call("list services", () => rt.api.listServiceForAllNamespaces({ labelSelector: sel })))
        .items,
    });
    others.push({
      kind: "secrets",
      items: (await call("list secrets", () => rt.api.listSecretForAllNamespaces({ labelSelector: sel })))
        .items,
    });
    others.push({
      kind: "pvcs",
      items: (
        await call("list disks", () =>
          rt.api.listPersistentVolumeClaimForAllNamespaces({ labelSelector: sel }),
        )
      ).items,
    });
  }
  const ids = [
    ...new Set(
      [...pods, ...others.flatMap((o) => o.items)].map((o) => o.metadata?.labels?.[LABEL.instance] ?? ""),
    ),
  ].filter((id) => /^[0-9a-f-]{36}$/.test(id));
  const rows = ids.length
    ? await db
        .select({ id: instances.id, state: instances.state, queuedAt: instances.queuedAt })
        .from(instances)
        .where(inArray(instances.id, ids))
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  let n = 0;
  for (const p of pods) {
    if (p.metadata?.deletionTimestamp) continue;
    const inst = byId.get(p.metadata?.labels?.[LABEL.instance] ?? "");
    const current = inst && LIVE.has(inst.state) && p.metadata?.labels?.[LABEL.run] === runOf(inst.queuedAt);
    if (current) continue;
    await deletePod(rt.api, p.metadata?.namespace ?? "", p.metadata?.name ?? "");
    n++;
  }
  for (const { kind, items } of others) {
    for (const o of items) {
      const inst = byId.get(o.metadata?.labels?.[LABEL.instance] ?? "");
      const keep = inst && (kind === "pvcs" ? HOLDS_DISK.has(inst.state) : LIVE.has(inst.state));
      if (keep) continue;
      const name = o.metadata?.name ?? "";
      const namespace = o.metadata?.namespace ?? "";
      if (kind === "services")
        await call("delete a leftover service", () => rt.api.deleteNamespacedService({ name, namespace }));
      else if (kind === "secrets")
        await call("delete a leftover secret", () => rt.api.deleteNamespacedSecret({ name, namespace }));
      else
        await call("delete a leftover disk", () =>
          rt.api.deleteNamespacedPersistentVolumeClaim({ name, namespace }),
        );
      n++;
    }
  }
  return n;
}

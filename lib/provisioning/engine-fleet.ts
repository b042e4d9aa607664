import "server-only";
import { sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit";
import type { Ctx } from "@/lib/core";
import type { Tx } from "@/lib/db/client";
import type { EngineNode } from "./providers";
import { lockRegionPlacement } from "./scheduler";

export type FleetSync = { added: number; changed: number; gone: number };

/**
 * Mirrors an engine's nodes into the region's nodes/node_gpus rows, so the console's fleet, capacity charts and
 * the capacity invariant read what the cluster has. A node the engine no longer reports is marked down (its
 * rows stay: allocations and history point at them); other rows of the region (not "<node>.<cluster>") are left
 * alone. Status changes made on the cluster (an admin's drain, a
 * node that stopped responding) are audited with the engine's own words.
 */
export async function syncEngineFleet(
  tx: Tx,
  ctx: Ctx,
  regionCode: string,
  reported: EngineNode[],
  now: Date,
  clusterName: string,
): Promise<FleetSync> {
  await lockRegionPlacement(tx, regionCode);
  const before = await tx.execute<{ id: string; name: string; status: string }>(
    sql`select id, name, status from nodes where region_code = ${regionCode}`,
  );
  const known = new Map(before.rows.map((r) => [r.name, r]));
  const out: FleetSync = { added: 0, changed: 0, gone: 0 };
  for (const n of reported) {
    const prev = known.get(n.name);
    const res = await tx.execute<{ id: string }>(sql`
      insert into nodes (name, region_code, gpu_model_id, gpu_count, vcpus, ram_gib, status, created_at)
      values (${n.name}, ${regionCode}, ${n.gpuModelId}, ${n.gpuCount}, ${n.vcpus}, ${n.ramGib},
              ${n.status}::node_status, ${now})
      on conflict (name) do update set region_code = excluded.region_code, gpu_model_id = excluded.gpu_model_id,
        gpu_count = excluded.gpu_count, vcpus = excluded.vcpus, ram_gib = excluded.ram_gib,
        status = excluded.status
      returning id`);
    const id = res.rows[0]?.id as string;
    if (n.gpuCount > 0) {
      await tx.execute(sql`
        insert into node_gpus (node_id, gpu_index, mig_enabled)
        select ${id}::uuid, g, g = any(${`{${n.migGpuIndexes.join(",")}}`}::int[])
        from generate_series(0, ${n.gpuCount - 1}) g
        on conflict (node_id, gpu_index) do update set mig_enabled = excluded.mig_enabled`);
    }
    if (!prev) out.added++;
    else if (prev.status !== n.status) out.changed++;
    if (prev && prev.status !== n.status) {
      await writeAudit(tx, ctx.actor, {
        orgId: null,
        action: `node.${n.status === "down" ? "failed" : n.status === "draining" ? "drained" : "activated"}`,
        targetType: "node",
        targetId: id,
        data: { name: n.name, from: prev.status, engineState: n.engineState, engineReason: n.engineReason },
        at: now,
      });
    }
  }
  const seen = new Set(reported.map((n) => n.name));
  const gone = before.rows
    .filter((r) => r.name.endsWith(`.${clusterName}`) && !seen.has(r.name) && r.status !== "down")
    .map((r) => r.id);
  if (gone.length > 0) {
    await tx.execute(sql`update nodes set status = 'down' where id = any(${`{${gone.join(",")}}`}::uuid[])`);
    out.gone = gone.length;
  }
  return out;
}

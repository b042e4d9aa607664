import "server-only";
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Ctx } from "@/lib/core";
import { withTx } from "@/lib/db/client";
import { images, instances, instanceTypes, organizations } from "@/lib/db/schema";
import { applyTransitions } from "./lifecycle";
import { providerInstanceMapper } from "./provider-instance";
import type { Engine, EngineWorkload } from "./providers";

/**
 * Hands the region's admitted (queued) instances without a workload to the engine, highest priority first.
 * Rows are claimed FOR UPDATE SKIP LOCKED and the engine's id is written in the same short transaction, so two
 * workers never submit one instance twice. A refusal by the engine (an unknown account, a GRES it lacks) is the
 * instance's failure, with the engine's message.
 */
export async function submitQueued(
  ctx: Ctx,
  engine: Engine,
  region: string,
  now: Date,
): Promise<{ submitted: number; failed: number }> {
  const out = { submitted: 0, failed: 0 };
  for (let round = 0; round < 20; round++) {
    const n = await withTx(ctx.tx, async (tx) => {
      const claimed = await tx
        .select({ id: instances.id })
        .from(instances)
        .where(
          and(eq(instances.regionCode, region), eq(instances.state, "queued"), isNull(instances.providerRef)),
        )
        .orderBy(desc(instances.priority), asc(instances.queuedAt), asc(instances.id))
        .limit(25)
        .for("update", { skipLocked: true });
      if (claimed.length === 0) return 0;
      const full = await tx
        .select({
          inst: instances,
          orgSlug: organizations.slug,
          imageReference: images.reference,
          migProfile: instanceTypes.migProfile,
        })
        .from(instances)
        .innerJoin(organizations, eq(organizations.id, instances.orgId))
        .innerJoin(images, eq(images.id, instances.imageId))
        .innerJoin(instanceTypes, eq(instanceTypes.id, instances.instanceTypeId))
        .where(
          inArray(
            instances.id,
            claimed.map((c) => c.id),
          ),
        );
      const toProvider = await providerInstanceMapper(tx);
      for (const { inst, ...extra } of full) {
        const work: EngineWorkload = {
          ...toProvider(inst),
          ...extra,
          command: inst.command,
          args: inst.args,
          env: inst.env,
          exposedPort: inst.exposedPort,
          maxRuntimeMinutes: inst.maxRuntimeMinutes,
        };
        try {
          const ref = await engine.submit(work);
          await tx.execute(sql`
            update instances set provider_ref = ${ref}, state_reason = ${"Submitted to the cluster's queue"},
              updated_at = ${now}
            where id = ${inst.id}`);
          out.submitted++;
        } catch (err) {
          const reason = `The cluster refused the job: ${err instanceof Error ? err.message : String(err)}`;
          const base = { id: inst.id, orgId: inst.orgId, at: now };
          await applyTransitions(tx, ctx, [{ ...base, from: "queued", to: "provisioning", reason }]);
          await applyTransitions(tx, ctx, [
            { ...base, from: "provisioning", to: "failed", reason, patch: { stateReason: reason } },
          ]);
          out.failed++;
        }
      }
      return claimed.length;
    });
    if (n < 25) break;
  }
  return out;
}

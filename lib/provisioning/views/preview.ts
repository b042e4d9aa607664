import "server-only";
import { z } from "zod";
import { requireOrgAccess } from "@/lib/access";
import { getOffering } from "@/lib/catalog";
import { type Ctx, parseInput } from "@/lib/core";
import { expectedWait } from "../queue";
import { gpusOfSlices, quotaLeft } from "../quota";
import type { LaunchPreviewView } from "./schemas";

export const launchPreviewQuerySchema = z.object({
  instanceType: z.string().trim().min(1, "Choose an instance type"),
  region: z.string().trim().min(1, "Choose a region"),
});

/**
 * What the launch form shows before submitting: the offering's prices per pricing model, the quota left for its
 * GPU model in that region, and the expected wait for a launch queued now.
 */
export async function launchPreview(ctx: Ctx, orgSlug: string, query: unknown): Promise<LaunchPreviewView> {
  // Authorize before validating: a stranger's bad query is a 404, not a field list.
  await requireOrgAccess(ctx, orgSlug, "viewer");
  const q = parseInput(launchPreviewQuerySchema, query);
  const offering = await getOffering(ctx, orgSlug, { instanceTypeId: q.instanceType, regionCode: q.region });
  const slices = offering.migSlices ?? offering.gpuCount * 7;
  const [quota, wait] = await Promise.all([
    quotaLeft(ctx, orgSlug, offering.gpuModelId, offering.regionCode, slices),
    expectedWait(offering.regionCode, offering.instanceTypeId, ctx),
  ]);
  return {
    instanceTypeId: offering.instanceTypeId,
    regionCode: offering.regionCode,
    gpuModelName: offering.gpuModelName,
    // GPU-equivalents this launch takes from the quota (a MIG slice is its share of one GPU).
    gpusNeeded: gpusOfSlices(slices),
    prices: offering.prices,
    allowed: offering.allowed,
    quota,
    expectedWait: wait && { etaSeconds: wait.etaSeconds, method: wait.method, ahead: wait.ahead },
  };
}

import { z } from "zod";
import { errorToProblem } from "@/lib/api/problem";
import { getOffering } from "@/lib/catalog";
import { parseInput } from "@/lib/core";
import { expectedWait, gpusOfSlices, quotaLeft } from "@/lib/provisioning";
import { apiCtx, json } from "../actor";

const querySchema = z.object({
  instanceType: z.string().trim().min(1, "Choose an instance type"),
  region: z.string().trim().min(1, "Choose a region"),
});

/**
 * GET ?instanceType=&region=: what the launch form shows before submitting — the offering's prices per
 * pricing model, the quota left for its GPU model in that region, and the
 * expected wait for a launch queued now.
 */
export async function GET(req: Request, { params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const url = new URL(req.url);
  try {
    const ctx = await apiCtx();
    const q = parseInput(querySchema, Object.fromEntries(url.searchParams));
    const offering = await getOffering(ctx, org, { instanceTypeId: q.instanceType, regionCode: q.region });
    const [quota, wait] = await Promise.all([
      quotaLeft(ctx, org, offering.gpuModelId, offering.regionCode),
      expectedWait(offering.regionCode, offering.instanceTypeId, ctx),
    ]);
    return json({
      instanceTypeId: offering.instanceTypeId,
      regionCode: offering.regionCode,
      gpuModelName: offering.gpuModelName,
      // GPU-equivalents this launch takes from the quota (a MIG slice is its share of one GPU).
      gpusNeeded: gpusOfSlices(offering.migSlices ?? offering.gpuCount * 7),
      prices: offering.prices,
      allowed: offering.allowed,
      quota,
      expectedWait: wait && { etaSeconds: wait.etaSeconds, method: wait.method, ahead: wait.ahead },
    });
  } catch (err) {
    return errorToProblem(err, url.pathname);
  }
}

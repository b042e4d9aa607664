import { errorToProblem } from "@/lib/api/problem";
import { parseInput } from "@/lib/core";
import { utilizationQuerySchema, utilizationSeries } from "@/lib/telemetry";
import { apiCtx, json } from "../../actor";

/**
 * GET ?metric=utilization|memory|power|temperature&range=1h|6h|24h|7d|30d: one instance's GPU series, per GPU
 * and averaged, downsampled in SQL to at most ~600 points. Another organization's instance is a 404 problem.
 */
export async function GET(req: Request, { params }: { params: Promise<{ org: string; id: string }> }) {
  const { org, id } = await params;
  const url = new URL(req.url);
  try {
    const ctx = await apiCtx(req);
    const query = parseInput(utilizationQuerySchema, {
      metric: url.searchParams.get("metric") || undefined,
      range: url.searchParams.get("range") || undefined,
    });
    return json(await utilizationSeries(ctx, org, id, query));
  } catch (err) {
    return errorToProblem(err, url.pathname);
  }
}

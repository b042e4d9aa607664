import { errorToProblem } from "@/lib/api/problem";
import { instanceLogs } from "@/lib/telemetry";
import { apiCtx, json } from "../../actor";

/** GET: the container's log tail (`since` = ISO time of the last line seen, `limit`). */
export async function GET(req: Request, { params }: { params: Promise<{ org: string; id: string }> }) {
  const { org, id } = await params;
  const url = new URL(req.url);
  try {
    return json(
      await instanceLogs(await apiCtx(req), org, id, {
        since: url.searchParams.get("since") || undefined,
        limit: url.searchParams.get("limit") || undefined,
      }),
    );
  } catch (err) {
    return errorToProblem(err, url.pathname);
  }
}

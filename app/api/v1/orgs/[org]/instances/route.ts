import { loadInstanceList } from "@/app/(console)/[org]/instances/views";
import { errorToProblem } from "@/lib/api/problem";
import type { ListInstancesFilter } from "@/lib/provisioning";
import { apiCtx, json } from "./actor";

/** GET: the organization's instances (filters: project, state, region, page), for the list's live status. */
export async function GET(req: Request, { params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const url = new URL(req.url);
  const q = url.searchParams;
  try {
    const ctx = await apiCtx();
    const page = q.get("page");
    return json(
      await loadInstanceList(ctx, org, {
        project: q.get("project") || undefined,
        // Typed loosely on purpose: the library's schema checks it, and an unknown state is a 422 problem.
        state: (q.get("state") || undefined) as ListInstancesFilter["state"],
        region: q.get("region") || undefined,
        page: page ? Number(page) : undefined,
      }),
    );
  } catch (err) {
    return errorToProblem(err, url.pathname);
  }
}

import { loadInstanceDetail } from "@/app/(console)/[org]/instances/views";
import { errorToProblem } from "@/lib/api/problem";
import { apiCtx, json } from "../actor";

/** GET: one instance with its timeline, queue insight and cost estimate; another org's id is a 404 problem. */
export async function GET(req: Request, { params }: { params: Promise<{ org: string; id: string }> }) {
  const { org, id } = await params;
  try {
    return json(await loadInstanceDetail(await apiCtx(req), org, id));
  } catch (err) {
    return errorToProblem(err, new URL(req.url).pathname);
  }
}

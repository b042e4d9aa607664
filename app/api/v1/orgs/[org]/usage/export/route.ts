import { errorToProblem } from "@/lib/api/problem";
import { exportLedgerCsv } from "@/lib/metering";
import { apiCtx } from "../../instances/actor";

/**
 * GET: the usage ledger of a range as CSV (`from`, `to` exclusive, optional `project`), streamed in batches.
 * Access and input are checked before the first byte, so errors are still problem+json.
 */
export async function GET(req: Request, { params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const url = new URL(req.url);
  try {
    const { filename, lines } = await exportLedgerCsv(await apiCtx(req), org, {
      from: url.searchParams.get("from") ?? undefined,
      to: url.searchParams.get("to") ?? undefined,
      project: url.searchParams.get("project") || undefined,
    });
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await lines.return(undefined);
      },
    });
    return new Response(body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
        "cache-control": "no-store",
      },
    });
  } catch (err) {
    return errorToProblem(err, url.pathname);
  }
}

import { csvResponse } from "@/lib/api/csv-response";
import { apiHandler } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { exportLedgerCsv } from "@/lib/metering";

/**
 * GET: the usage ledger of a range as CSV (`from`, `to` exclusive, optional `project`), streamed in batches.
 * Access and input are checked before the first byte, so errors are still problem+json.
 */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const { filename, lines } = await exportLedgerCsv(ctx, params.org, {
    from: url.searchParams.get("from") ?? undefined,
    to: url.searchParams.get("to") ?? undefined,
    project: url.searchParams.get("project") || undefined,
  });
  return csvResponse(filename, lines);
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");

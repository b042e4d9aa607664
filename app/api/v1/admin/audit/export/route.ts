import { exportPlatformAuditCsv } from "@/lib/admin";
import { csvResponse } from "@/lib/api/csv-response";
import { apiHandler } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";

/** GET (operators) ?org=&actor=&action=&from=&to=: the audit log under the page's filters as CSV. */
export const GET = apiHandler(async ({ ctx, url }) => {
  const q = (k: string) => url.searchParams.get(k) || undefined;
  const { filename, lines } = await exportPlatformAuditCsv(ctx, {
    org: q("org"),
    actor: q("actor"),
    action: q("action"),
    from: q("from"),
    to: q("to"),
  });
  return csvResponse(filename, lines);
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");

import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { idempotentPlatformCreate } from "@/lib/api/idempotency";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { listPrices, schedulePriceChange } from "@/lib/catalog";

/** GET (operators) ?region=&gpuModel=&limit=&cursor=: prices in force and scheduled, against the market median. */
export const GET = apiHandler(async ({ ctx, url }) => {
  const rows = await listPrices(ctx, {
    region: url.searchParams.get("region") || undefined,
    gpuModel: url.searchParams.get("gpuModel") || undefined,
  });
  return apiJson(
    pageOf(rows, url.searchParams, (r) => `${r.instanceTypeId}/${r.regionCode}/${r.pricingModel}`),
  );
});

/**
 * POST {instanceTypeId, regionCode, pricingModel, usdPerHour, effectiveFrom}: schedule a future price; with an
 * Idempotency-Key a retry replays the change scheduled (the time it took is otherwise a 409).
 */
export const POST = apiHandler(async ({ req, ctx }) => {
  const body = await readJsonBody(req);
  return idempotentPlatformCreate(req, ctx, "prices", body, async (c) => ({
    body: await schedulePriceChange(c, body),
  }));
});

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");

import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
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

/** POST {instanceTypeId, regionCode, pricingModel, usdPerHour, effectiveFrom}: schedule a future price. */
export const POST = apiHandler(async ({ req, ctx }) =>
  apiJson(await schedulePriceChange(ctx, await readJsonBody(req)), { status: 201 }),
);

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");

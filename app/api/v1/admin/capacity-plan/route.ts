import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { getCapacityPlan } from "@/lib/telemetry";

/** GET (operators): the capacity plan per region × GPU model (the console's /admin/capacity table). */
export const GET = apiHandler(async ({ ctx, url }) =>
  apiJson(pageOf(await getCapacityPlan(ctx), url.searchParams, (r) => `${r.regionCode}/${r.gpuModelId}`)),
);

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");

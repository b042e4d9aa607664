import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { launchPreview } from "@/lib/provisioning";

/** GET ?instanceType=&region=: what the launch form shows before submitting (prices, quota left, expected wait). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) =>
  apiJson(await launchPreview(ctx, params.org, Object.fromEntries(url.searchParams))),
);

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");

import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { cancelPriceChange } from "@/lib/catalog";

/** DELETE (operators): cancel a price change that has not taken effect (409 once it is in force). */
export const DELETE = apiHandler<{ id: string }>(async ({ ctx, params }) =>
  apiJson(await cancelPriceChange(ctx, params.id)),
);

export const { GET, POST, PUT, PATCH } = notAllowed("DELETE");

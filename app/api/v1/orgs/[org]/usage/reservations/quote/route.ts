import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { quoteReservation, type ReservationInput } from "@/lib/metering";

/** POST {gpuModelId, regionCode, gpuCount, term}: what that reservation would cost if bought now. */
export const POST = apiHandler<{ org: string }>(async ({ req, ctx, params }) =>
  apiJson(await quoteReservation(ctx, params.org, (await readJsonBody(req)) as ReservationInput)),
);

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");

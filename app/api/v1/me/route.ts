import { apiHandler, apiJson } from "@/lib/api/handler";
import { getMe } from "@/lib/api/me";
import { notAllowed } from "@/lib/api/not-allowed";

/** GET: who the credentials belong to, and the organizations they reach (a token: only its own). */
export const GET = apiHandler(async ({ ctx }) => apiJson(await getMe(ctx)));

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");

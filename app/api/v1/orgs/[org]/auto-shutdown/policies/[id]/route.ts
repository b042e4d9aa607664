import { apiHandler } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { deleteAutoShutdownPolicy } from "@/lib/autoshutdown";

/** DELETE: remove a policy; its scope falls back to the broader one (admins and owners). */
export const DELETE = apiHandler<{ org: string; id: string }>(async ({ ctx, params }) => {
  await deleteAutoShutdownPolicy(ctx, params.org, params.id);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH } = notAllowed("DELETE");

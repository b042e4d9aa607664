import { z } from "zod";
import { requireOrgAccess } from "@/lib/access";
import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { parseInput } from "@/lib/core";
import { markNotificationsRead } from "@/lib/notify";

const markReadSchema = z.object({
  ids: z.array(z.uuid("Use notification ids")).min(1, "Name at least one notification").max(200),
});

/** POST {ids}: mark these notifications read for the caller. */
export const POST = apiHandler<{ org: string }>(async ({ req, ctx, params }) => {
  const body = await readJsonBody(req);
  // The gate first (a stranger's bad body is a 404), then the body.
  await requireOrgAccess(ctx, params.org);
  const { ids } = parseInput(markReadSchema, body);
  return apiJson({ marked: await markNotificationsRead(ctx, params.org, ids) });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");

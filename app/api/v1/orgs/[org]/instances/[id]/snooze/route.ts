import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { type SnoozeInput, snooze } from "@/lib/autoshutdown";

/** POST {minutes}: postpone the pending automatic shutdown where the policy allows (members and up). */
export const POST = apiHandler<{ org: string; id: string }>(async ({ req, ctx, params }) => {
  const body = (await readJsonBody(req)) as SnoozeInput;
  const { snoozedUntil } = await snooze(ctx, params.org, params.id, body);
  return apiJson({ instanceId: params.id, snoozedUntil: snoozedUntil.toISOString() });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");

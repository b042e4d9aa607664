import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { loadInstanceDetail } from "@/lib/provisioning";

/**
 * GET: why the instance waits and for how long: its state, the structured queue reason, and while queued its
 * position, ETA (with the method) and alternatives that would start sooner. `queue` is null once it left the queue.
 */
export const GET = apiHandler<{ org: string; id: string }>(async ({ ctx, params }) => {
  const d = await loadInstanceDetail(ctx, params.org, params.id);
  return apiJson({ instanceId: d.id, state: d.state, queueReason: d.queueReason, queue: d.queue });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");

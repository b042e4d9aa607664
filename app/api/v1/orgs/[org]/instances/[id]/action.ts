import "server-only";
import { apiHandler, apiJson } from "@/lib/api/handler";
import type { Ctx } from "@/lib/core";
import { loadInstanceDetail } from "@/lib/provisioning";

type Verb = (ctx: Ctx, orgSlug: string, instanceId: string) => Promise<unknown>;

/**
 * POST …/instances/{id}/{verb}: run one lifecycle verb and answer with the instance as it is now (200). The
 * library refuses an illegal transition with InvalidState (409) and another organization's id with 404.
 */
export function instanceAction(verb: Verb) {
  return apiHandler<{ org: string; id: string }>(async ({ ctx, params }) => {
    await verb(ctx, params.org, params.id);
    return apiJson(await loadInstanceDetail(ctx, params.org, params.id));
  });
}

import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, nowOf, parseInput } from "@/lib/core";
import { inTx } from "@/lib/db/client";
import { services } from "@/lib/db/schema";
import { hashServiceToken, newServiceToken } from "./create";
import { recordServiceEvent } from "./events";
import { SERVICE_FIELD_MESSAGES as M } from "./field-messages";
import { loadOrgService } from "./manage";
import type { Service } from "./types";

export const serviceAuthSchema = z
  .object({ auth: z.enum(["token", "public"], { error: M.authInvalid }) })
  .meta({ id: "ServiceAuthChange" });

/** The answer: the mode now, and the new token (shown once) when it is `token`. */
export const serviceAuthViewSchema = z
  .object({
    auth: z.enum(["token", "public"]),
    token: z.string().nullable().meta({ description: "The new service token, shown once; null when public" }),
  })
  .meta({ id: "ServiceAuth" });

/**
 * Change who may call a service: `public`, or `token` — which issues a new service token (shown once; a token
 * service asked for `token` again has its token rotated, the old one refused from the gateway's next route
 * refresh). Members and up; another tenant's service is a NotFound; a refusal writes nothing.
 */
export async function setServiceAuth(
  ctx: Ctx,
  orgSlug: string,
  idOrName: string,
  raw: unknown,
  opts: { precondition?: (current: Service) => void } = {},
): Promise<{ token: string | null }> {
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const now = nowOf(ctx);
    const { org } = await requireOrgAccess(c, orgSlug, "member");
    const svc = await loadOrgService(tx, org.id, idOrName, true);
    // The API's If-Match, checked on the locked row (a stale read is a 412 and no token is issued).
    opts.precondition?.(svc);
    const { auth } = parseInput(serviceAuthSchema, raw);
    const token = auth === "token" ? newServiceToken() : null;
    await tx
      .update(services)
      .set({
        spec: { ...svc.spec, auth },
        tokenHash: token ? hashServiceToken(token) : null,
        updatedAt: now,
      })
      .where(eq(services.id, svc.id));
    const rotated = auth === "token" && svc.spec.auth === "token";
    await recordServiceEvent(tx, {
      orgId: org.id,
      serviceId: svc.id,
      at: now,
      code: rotated ? "token_rotated" : auth === "token" ? "auth_token" : "auth_public",
    });
    await writeAudit(tx, c.actor, {
      orgId: org.id,
      action: rotated ? "service.token_rotated" : "service.auth_changed",
      targetType: "service",
      targetId: svc.id,
      data: { from: svc.spec.auth, to: auth },
      at: now,
    });
    return { token };
  });
}

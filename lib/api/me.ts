import "server-only";
import { listMyOrganizations, type OrgRole } from "@/lib/access";
import { getUserById } from "@/lib/auth";
import { type Ctx, UnauthorizedError } from "@/lib/core";

export type Me = {
  user: { id: string; email: string; name: string };
  /** How this call was authenticated; a token only ever sees its own organization. */
  authentication: "token" | "session";
  organizations: Array<{ slug: string; name: string; role: OrgRole; allowedJurisdictions: string[] }>;
};

/** The caller and the organizations they can reach with these credentials. */
export async function getMe(ctx: Ctx): Promise<Me> {
  if (ctx.actor.kind !== "user") throw new UnauthorizedError();
  const tokenOrgId = ctx.actor.tokenOrgId;
  const [user, orgs] = await Promise.all([getUserById(ctx.actor.userId), listMyOrganizations(ctx)]);
  if (!user) throw new UnauthorizedError();
  return {
    user: { id: user.id, email: user.email, name: user.name },
    authentication: tokenOrgId ? "token" : "session",
    organizations: orgs
      .filter((o) => !tokenOrgId || o.id === tokenOrgId)
      .map((o) => ({
        slug: o.slug,
        name: o.name,
        role: o.role,
        allowedJurisdictions: o.allowedJurisdictions,
      })),
  };
}

import "server-only";
import { and, eq } from "drizzle-orm";
import { writeAudit } from "@/lib/audit";
import { UnauthorizedError } from "@/lib/core";
import { withTx } from "@/lib/db/client";
import { userIdentities, users } from "@/lib/db/schema";
import { createOrganizationWithOwner } from "@/lib/tenancy";

export type OidcProfile = {
  sub: string;
  email?: string | null;
  emailVerified?: boolean;
  name?: string | null;
};

/**
 * Resolve an OIDC sign-in to a Forja user: a known identity (provider, subject) wins; else an email the provider
 * marks verified links to the existing account; else a new user with their own organization is created.
 */
export async function resolveOidcUser(provider: string, profile: OidcProfile) {
  return withTx(undefined, async (tx) => {
    const [known] = await tx
      .select({ user: users })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, profile.sub)))
      .limit(1);
    if (known) return known.user;
    const email = profile.email?.trim().toLowerCase();
    if (!email || profile.emailVerified === false) {
      throw new UnauthorizedError("The identity provider did not return a verified email address");
    }
    const [existing] = await tx.select().from(users).where(eq(users.email, email)).limit(1);
    // Linking hands over an existing account, so the provider must vouch for the address explicitly.
    if (existing && profile.emailVerified !== true) {
      throw new UnauthorizedError("The identity provider did not confirm this email address is verified");
    }
    // Issue 12 item 6: an account whose address was never proven may belong to a squatter who registered it
    // first; linking would hand them the real owner's SSO sign-ins. The owner proves it with a password reset.
    if (existing && !existing.emailVerifiedAt) {
      throw new UnauthorizedError("This email address has an unconfirmed account; reset its password first");
    }
    let user = existing;
    if (!user) {
      const name = profile.name?.trim() || email.split("@")[0] || email;
      // The provider vouched for the address (checked above).
      [user] = await tx.insert(users).values({ email, name, emailVerifiedAt: new Date() }).returning();
      if (!user) throw new Error("user insert returned nothing");
      const actor = { kind: "user" as const, userId: user.id, email, isOperator: false };
      await writeAudit(tx, actor, { orgId: null, action: "user.signed_up", data: { via: provider } });
      await createOrganizationWithOwner(tx, actor, { name: `${name}'s organization`, ownerId: user.id });
    }
    await tx.insert(userIdentities).values({ userId: user.id, provider, subject: profile.sub });
    return user;
  });
}

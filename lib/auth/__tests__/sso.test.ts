import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { resolveOidcUser, signUp } from "@/lib/auth";
import { UnauthorizedError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { auditLog, memberships, organizations, userIdentities, users } from "@/lib/db/schema";
import { uniqueEmail } from "@/test/factories";

const sub = () => `sub-${randomUUID()}`;
const identitiesOf = (userId: string) =>
  getDb().select().from(userIdentities).where(eq(userIdentities.userId, userId));
const orgsOf = (userId: string) =>
  getDb()
    .select({ role: memberships.role, name: organizations.name })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.orgId))
    .where(eq(memberships.userId, userId));

describe("resolveOidcUser", () => {
  it("creates a new user with their own organization, owned by them, and links the identity", async () => {
    const email = uniqueEmail("sso-new");
    const subject = sub();
    const user = await resolveOidcUser("oidc", { sub: subject, email, emailVerified: true, name: "Nia New" });
    expect(user).toMatchObject({ email, name: "Nia New", passwordHash: null });
    expect(await orgsOf(user.id)).toEqual([{ role: "owner", name: "Nia New's organization" }]);
    expect((await identitiesOf(user.id)).map((i) => [i.provider, i.subject])).toEqual([["oidc", subject]]);
    const audits = await getDb().select().from(auditLog).where(eq(auditLog.actorUserId, user.id));
    expect(audits.map((a) => a.action)).toEqual(
      expect.arrayContaining(["user.signed_up", "organization.created"]),
    );
  });

  it("reuses the identity on the next sign-in, even when the email at the provider changed", async () => {
    const subject = sub();
    const first = await resolveOidcUser("oidc", {
      sub: subject,
      email: uniqueEmail("sso-a"),
      emailVerified: true,
    });
    const again = await resolveOidcUser("oidc", {
      sub: subject,
      email: uniqueEmail("sso-b"),
      emailVerified: true,
    });
    expect(again.id).toBe(first.id);
    expect(await identitiesOf(first.id)).toHaveLength(1);
    expect(await orgsOf(first.id)).toHaveLength(1);
  });

  it("links a verified email to the existing password account instead of creating another", async () => {
    const email = uniqueEmail("sso-link");
    const { user: existing } = await signUp(
      {},
      { name: "Lena Link", email, password: "a-long-enough-password", organizationName: "Link Labs" },
    );
    // Lena proved the address (the emailed link), so SSO may sign in to the same account.
    await getDb().update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, existing.id));
    const user = await resolveOidcUser("oidc", {
      sub: sub(),
      email: email.toUpperCase(),
      emailVerified: true,
    });
    expect(user.id).toBe(existing.id);
    expect(await identitiesOf(existing.id)).toHaveLength(1);
    expect(await orgsOf(existing.id)).toEqual([{ role: "owner", name: "Link Labs" }]);
    expect(await getDb().$count(users, eq(users.email, email))).toBe(1);
  });

  it("does not link an existing account when the provider does not say the email is verified", async () => {
    const email = uniqueEmail("sso-unverified");
    const { user: existing } = await signUp(
      {},
      { name: "Uma", email, password: "a-long-enough-password", organizationName: "Uma Labs" },
    );
    await expect(resolveOidcUser("oidc", { sub: sub(), email })).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(resolveOidcUser("oidc", { sub: sub(), email, emailVerified: false })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(await identitiesOf(existing.id)).toHaveLength(0);
  });

  // Issue 12 item 6: a squatter signs up as alice@… with a password; Alice later signs in with corporate SSO and
  // was linked to that row, password left in place, so both shared the account.
  it("does not link an account whose address was never proven, even when the provider verified it", async () => {
    const email = uniqueEmail("sso-squat");
    const { user: squatter } = await signUp(
      {},
      { name: "Squatter", email, password: "squatters-password", organizationName: "Squat Labs" },
    );
    await expect(
      resolveOidcUser("oidc", { sub: sub(), email, emailVerified: true, name: "Alice" }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(await identitiesOf(squatter.id)).toHaveLength(0);
  });

  it("refuses a profile without an email and creates nothing", async () => {
    const subject = sub();
    await expect(resolveOidcUser("oidc", { sub: subject, emailVerified: true })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(await getDb().$count(userIdentities, eq(userIdentities.subject, subject))).toBe(0);
  });
});

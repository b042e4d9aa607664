import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { signUpWithInvitation } from "@/lib/auth";
import { ForbiddenError, InvalidStateError, NotFoundError, type ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { memberships, users } from "@/lib/db/schema";
import {
  acceptInvitation,
  findInvitationByToken,
  inviteMember,
  removeMember,
  revokeInvitation,
} from "@/lib/tenancy";
import { newTenant, uniqueEmail } from "@/test/factories";
import { auditActions, DAY, newUser, roleIn } from "./helpers";

async function invited(
  role: "admin" | "member" | "viewer" = "member",
  t0 = new Date("2031-04-01T00:00:00Z"),
) {
  const tenant = await newTenant("acc");
  const invitee = await newUser("invitee");
  const { token, invitation } = await inviteMember({ ...tenant.ctx, now: () => t0 }, tenant.org.slug, {
    email: invitee.user.email,
    role,
  });
  return { ...tenant, invitee, token, invitation, t0, at: (ms: number) => () => new Date(t0.getTime() + ms) };
}

describe("acceptInvitation", () => {
  it("adds the invited user with the invited role and writes an audit row", async () => {
    const s = await invited("viewer");
    const result = await acceptInvitation({ ...s.invitee.ctx, now: s.at(DAY) }, s.token);
    expect(result.org.slug).toBe(s.org.slug);
    expect(await roleIn(s.org.id, s.invitee.user.id)).toBe("viewer");
    expect(await auditActions(s.org.id)).toContain("invitation.accepted");
    expect((await findInvitationByToken({}, s.token))?.status).toBe("accepted");
  });

  it("is idempotent: accepting twice keeps one membership and one audit row", async () => {
    const s = await invited();
    await acceptInvitation({ ...s.invitee.ctx, now: s.at(DAY) }, s.token);
    const again = await acceptInvitation({ ...s.invitee.ctx, now: s.at(2 * DAY) }, s.token);
    expect(again.alreadyAccepted).toBe(true);
    expect(await getDb().$count(memberships, eq(memberships.userId, s.invitee.user.id))).toBe(1);
    expect((await auditActions(s.org.id)).filter((a) => a === "invitation.accepted")).toHaveLength(1);
  });

  it("refuses someone signed in with another email, and changes nothing", async () => {
    const s = await invited();
    const stranger = await newUser("stranger");
    await expect(acceptInvitation({ ...stranger.ctx, now: s.at(DAY) }, s.token)).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect(await roleIn(s.org.id, stranger.user.id)).toBeNull();
    expect((await findInvitationByToken({ now: s.at(DAY) }, s.token))?.status).toBe("pending");
  });

  it("refuses an expired invitation (the 7th day is the last)", async () => {
    const s = await invited();
    const lastMoment = { ...s.invitee.ctx, now: s.at(7 * DAY - 1) };
    expect((await findInvitationByToken(lastMoment, s.token))?.status).toBe("pending");
    await expect(acceptInvitation({ ...s.invitee.ctx, now: s.at(7 * DAY) }, s.token)).rejects.toThrow(
      /expired/,
    );
    expect(await roleIn(s.org.id, s.invitee.user.id)).toBeNull();
    expect((await findInvitationByToken({ now: s.at(7 * DAY) }, s.token))?.status).toBe("expired");
  });

  it("refuses a revoked invitation", async () => {
    const s = await invited();
    await revokeInvitation(s.ctx, s.org.slug, { invitationId: s.invitation.id });
    const err = await acceptInvitation({ ...s.invitee.ctx, now: s.at(DAY) }, s.token).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InvalidStateError);
    expect((err as Error).message).toMatch(/revoked/);
    expect(await roleIn(s.org.id, s.invitee.user.id)).toBeNull();
  });

  it("refuses reuse after the member was removed", async () => {
    const s = await invited();
    await acceptInvitation({ ...s.invitee.ctx, now: s.at(DAY) }, s.token);
    await removeMember(s.ctx, s.org.slug, { userId: s.invitee.user.id });
    await expect(acceptInvitation({ ...s.invitee.ctx, now: s.at(DAY) }, s.token)).rejects.toThrow(
      /already used/,
    );
    expect(await roleIn(s.org.id, s.invitee.user.id)).toBeNull();
  });

  it.each(["", "x".repeat(500), "made-up-token"])(
    "answers NotFound to an unknown token %#",
    async (token) => {
      const someone = await newUser("nobody");
      await expect(acceptInvitation(someone.ctx, token)).rejects.toBeInstanceOf(NotFoundError);
      expect(await findInvitationByToken({}, token)).toBeNull();
    },
  );

  it("keeps the role of someone who is already a member", async () => {
    const tenant = await newTenant("acc-member");
    const admin = await newUser("already");
    await getDb().insert(memberships).values({ orgId: tenant.org.id, userId: admin.user.id, role: "admin" });
    // Invited before they were added (an invitation for an existing member is refused up front).
    await getDb().delete(memberships).where(eq(memberships.userId, admin.user.id));
    const { token } = await inviteMember(tenant.ctx, tenant.org.slug, {
      email: admin.user.email,
      role: "viewer",
    });
    await getDb().insert(memberships).values({ orgId: tenant.org.id, userId: admin.user.id, role: "admin" });
    await acceptInvitation(admin.ctx, token);
    expect(await roleIn(tenant.org.id, admin.user.id)).toBe("admin");
  });

  it("shows the page's facts: organization, role, inviter and whether an account exists", async () => {
    const s = await invited("admin");
    const view = await findInvitationByToken({ now: s.at(0) }, s.token);
    expect(view).toMatchObject({
      status: "pending",
      email: s.invitee.user.email,
      role: "admin",
      org: { slug: s.org.slug, name: s.org.name },
      inviterName: s.user.name,
      accountExists: true,
    });
  });
});

describe("signUpWithInvitation", () => {
  const password = "a-long-enough-password";

  it("creates the account for the invited email and joins the organization, without an organization of its own", async () => {
    const tenant = await newTenant("join");
    const email = uniqueEmail("fresh");
    const { token } = await inviteMember(tenant.ctx, tenant.org.slug, { email, role: "member" });
    const { user, org, role } = await signUpWithInvitation({}, token, { name: "Fresh Person", password });
    expect(user.email).toBe(email);
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(org.slug).toBe(tenant.org.slug);
    expect(role).toBe("member");
    const orgsOfUser = await getDb().select().from(memberships).where(eq(memberships.userId, user.id));
    expect(orgsOfUser.map((m) => [m.orgId, m.role])).toEqual([[tenant.org.id, "member"]]);
  });

  it("refuses when an account with the email exists (sign in instead)", async () => {
    const s = await invited();
    const err = await signUpWithInvitation({}, s.token, { name: "Dup", password }).catch((e: unknown) => e);
    expect((err as ValidationError).fieldErrors?.email?.[0]).toMatch(/Sign in to accept/);
  });

  it("leaves no account behind when the invitation cannot be used", async () => {
    const tenant = await newTenant("join-expired");
    const email = uniqueEmail("late");
    const t0 = new Date("2031-07-01T00:00:00Z");
    const { token } = await inviteMember({ ...tenant.ctx, now: () => t0 }, tenant.org.slug, {
      email,
      role: "member",
    });
    const late = () => new Date(t0.getTime() + 8 * DAY);
    await expect(
      signUpWithInvitation({ now: late }, token, { name: "Late", password }),
    ).rejects.toBeInstanceOf(InvalidStateError);
    await expect(signUpWithInvitation({}, "unknown-token", { name: "X", password })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await getDb().$count(users, eq(users.email, email))).toBe(0);
  });

  it.each([
    ["an empty name", { name: "", password }, "name"],
    ["a short password", { name: "Ok", password: "short" }, "password"],
    ["a wrong type", { name: 7, password }, "name"],
  ])("refuses %s with a field error", async (_label, raw, field) => {
    const tenant = await newTenant("join-val");
    const email = uniqueEmail("val");
    const { token } = await inviteMember(tenant.ctx, tenant.org.slug, { email, role: "member" });
    const err = await signUpWithInvitation({}, token, raw).catch((e: unknown) => e);
    expect(Object.keys((err as ValidationError).fieldErrors ?? {})).toContain(field);
    expect(await getDb().$count(users, eq(users.email, email))).toBe(0);
  });
});

import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ForbiddenError, NotFoundError, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { invitations, outbox } from "@/lib/db/schema";
import { SECRET_PLACEHOLDER, unseal } from "@/lib/notify";
import {
  hashInvitationToken,
  inviteMember,
  listInvitations,
  resendInvitation,
  revokeInvitation,
} from "@/lib/tenancy";
import { newTenant, uniqueEmail } from "@/test/factories";
import { addMember, auditActions, DAY, inviteFootprint } from "./helpers";

describe("inviteMember", () => {
  it("stores only the token's hash, expires in 7 days, and enqueues the email in the same transaction", async () => {
    const { org, ctx } = await newTenant("inv");
    const t0 = new Date("2031-03-01T10:00:00Z");
    const email = uniqueEmail("New.Person");
    const { invitation, token } = await inviteMember({ ...ctx, now: () => t0 }, org.slug, {
      email: email.toUpperCase(),
      role: "member",
    });
    expect(invitation.email).toBe(email.toLowerCase());
    expect(invitation.tokenHash).toBe(hashInvitationToken(token));
    expect(invitation.tokenHash).not.toContain(token);
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect(invitation.expiresAt.getTime() - t0.getTime()).toBe(7 * DAY);

    const [mail] = await getDb().select().from(outbox).where(eq(outbox.orgId, org.id));
    expect(mail?.toAddress).toBe(email.toLowerCase());
    expect(mail?.subject).toContain(org.name);
    // Issue 12 item 7: the stored bodies used to hold the working link for seven days (and in every backup).
    expect(mail?.textBody).toContain(
      `${process.env.NEXTAUTH_URL ?? `http://localhost:${process.env.PORT ?? 3000}`}/invite/${SECRET_PLACEHOLDER}`,
    );
    expect(mail?.htmlBody).toContain(`/invite/${SECRET_PLACEHOLDER}`);
    expect(`${mail?.textBody} ${mail?.htmlBody} ${mail?.secretSealed}`).not.toContain(token);
    expect(unseal(mail?.secretSealed ?? "")).toBe(token);
    expect(mail?.textBody).toContain("Member");
    expect(await auditActions(org.id)).toContain("invitation.created");
  });

  it("writes the email in the inviter's language", async () => {
    const { org, ctx } = await newTenant("inv-es");
    await inviteMember(ctx, org.slug, { email: uniqueEmail("es"), role: "viewer" }, { locale: "es" });
    const [mail] = await getDb().select().from(outbox).where(eq(outbox.orgId, org.id));
    expect(mail?.subject).toMatch(/te ha invitado/);
    expect(mail?.textBody).toContain("Lector");
  });

  it("lets admins invite admins, members and viewers, but only owners invite owners", async () => {
    const { org, ctx } = await newTenant("inv-roles");
    const admin = await addMember(org.id, "admin");
    for (const role of ["admin", "member", "viewer"] as const) {
      await inviteMember(admin.ctx, org.slug, { email: uniqueEmail(role), role });
    }
    const before = await inviteFootprint(org.id);
    await expect(
      inviteMember(admin.ctx, org.slug, { email: uniqueEmail("o"), role: "owner" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect(await inviteFootprint(org.id)).toEqual(before);
    await expect(
      inviteMember(ctx, org.slug, { email: uniqueEmail("o"), role: "owner" }),
    ).resolves.toBeTruthy();
  });

  it.each(["member", "viewer"] as const)("refuses a %s and writes nothing", async (role) => {
    const { org } = await newTenant("inv-weak");
    const weak = await addMember(org.id, role);
    const before = await inviteFootprint(org.id);
    await expect(
      inviteMember(weak.ctx, org.slug, { email: uniqueEmail("x"), role: "viewer" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect(await inviteFootprint(org.id)).toEqual(before);
  });

  it("answers NotFound to another organization's owner", async () => {
    const a = await newTenant("inv-a");
    const b = await newTenant("inv-b");
    await expect(
      inviteMember(b.ctx, a.org.slug, { email: uniqueEmail("x"), role: "member" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect((await inviteFootprint(a.org.id)).invitations).toBe(0);
  });

  it("refuses an existing member's email (any case) as a field error", async () => {
    const { org, ctx } = await newTenant("inv-dup-m");
    const member = await addMember(org.id, "member");
    const before = await inviteFootprint(org.id);
    const err = await inviteMember(ctx, org.slug, {
      email: member.user.email.toUpperCase(),
      role: "admin",
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).fieldErrors.email?.[0]).toMatch(/already a member/);
    expect(await inviteFootprint(org.id)).toEqual(before);
  });

  it("refuses an email with an open invitation, even an expired one, as a field error", async () => {
    const { org, ctx } = await newTenant("inv-dup-i");
    const email = uniqueEmail("twice");
    const t0 = new Date("2031-01-01T00:00:00Z");
    await inviteMember({ ...ctx, now: () => t0 }, org.slug, { email, role: "member" });
    for (const now of [t0, new Date(t0.getTime() + 8 * DAY)]) {
      const err = await inviteMember({ ...ctx, now: () => now }, org.slug, { email, role: "viewer" }).catch(
        (e: unknown) => e,
      );
      expect((err as ValidationError).fieldErrors?.email?.[0]).toMatch(/already has an invitation/);
    }
    expect((await inviteFootprint(org.id)).invitations).toBe(1);
  });

  it("allows inviting again after the invitation was revoked", async () => {
    const { org, ctx } = await newTenant("inv-again");
    const email = uniqueEmail("again");
    const { invitation } = await inviteMember(ctx, org.slug, { email, role: "member" });
    await revokeInvitation(ctx, org.slug, { invitationId: invitation.id });
    await expect(inviteMember(ctx, org.slug, { email, role: "member" })).resolves.toBeTruthy();
  });

  it.each([
    ["an empty email", { email: "", role: "member" }, "email"],
    ["a too long email", { email: `${"x".repeat(250)}@example.test`, role: "member" }, "email"],
    ["a malformed email", { email: "not-an-email", role: "member" }, "email"],
    ["a number as email", { email: 42, role: "member" }, "email"],
    ["an unknown role", { email: "ok@example.test", role: "superuser" }, "role"],
    ["a missing role", { email: "ok@example.test" }, "role"],
  ])("refuses %s with a field error and writes nothing", async (_label, raw, field) => {
    const { org, ctx } = await newTenant("inv-val");
    const before = await inviteFootprint(org.id);
    const err = await inviteMember(ctx, org.slug, raw).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(Object.keys((err as ValidationError).fieldErrors)).toContain(field);
    expect(await inviteFootprint(org.id)).toEqual(before);
  });
});

describe("resend, revoke and list", () => {
  it("resend issues a new link and a fresh 7-day expiry; the old link stops working", async () => {
    const { org, ctx } = await newTenant("inv-resend");
    const t0 = new Date("2031-05-01T00:00:00Z");
    const { invitation, token } = await inviteMember({ ...ctx, now: () => t0 }, org.slug, {
      email: uniqueEmail("r"),
      role: "member",
    });
    const t1 = new Date(t0.getTime() + 10 * DAY);
    const again = await resendInvitation({ ...ctx, now: () => t1 }, org.slug, {
      invitationId: invitation.id,
    });
    expect(again.token).not.toBe(token);
    const [row] = await getDb().select().from(invitations).where(eq(invitations.id, invitation.id));
    expect(row?.tokenHash).toBe(hashInvitationToken(again.token));
    expect(row?.expiresAt.getTime()).toBe(t1.getTime() + 7 * DAY);
    const mails = await getDb().select().from(outbox).where(eq(outbox.orgId, org.id));
    expect(mails.map((m) => unseal(m.secretSealed ?? "")).sort()).toEqual([token, again.token].sort());
    expect(await auditActions(org.id)).toContain("invitation.resent");
  });

  it("revoke marks the invitation and removes it from the pending list", async () => {
    const { org, ctx } = await newTenant("inv-revoke");
    const { invitation } = await inviteMember(ctx, org.slug, { email: uniqueEmail("r"), role: "member" });
    expect((await listInvitations(ctx, org.slug)).map((i) => i.id)).toEqual([invitation.id]);
    await revokeInvitation(ctx, org.slug, { invitationId: invitation.id });
    expect(await listInvitations(ctx, org.slug)).toEqual([]);
    expect(await auditActions(org.id)).toContain("invitation.revoked");
    await expect(resendInvitation(ctx, org.slug, { invitationId: invitation.id })).rejects.toThrow(/revoked/);
  });

  it("flags expired invitations in the list so they can be resent", async () => {
    const { org, ctx } = await newTenant("inv-list");
    const t0 = new Date("2031-06-01T00:00:00Z");
    await inviteMember({ ...ctx, now: () => t0 }, org.slug, { email: uniqueEmail("l"), role: "viewer" });
    const later = { ...ctx, now: () => new Date(t0.getTime() + 7 * DAY + 1) };
    expect((await listInvitations(later, org.slug)).map((i) => i.expired)).toEqual([true]);
  });

  it("lets only owners resend or revoke an owner's invitation, and refuses members and other tenants", async () => {
    const { org, ctx } = await newTenant("inv-manage");
    const admin = await addMember(org.id, "admin");
    const member = await addMember(org.id, "member");
    const other = await newTenant("inv-other");
    const { invitation } = await inviteMember(ctx, org.slug, { email: uniqueEmail("own"), role: "owner" });
    const id = { invitationId: invitation.id };
    await expect(resendInvitation(admin.ctx, org.slug, id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(revokeInvitation(admin.ctx, org.slug, id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(revokeInvitation(member.ctx, org.slug, id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(listInvitations(member.ctx, org.slug)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(revokeInvitation(other.ctx, org.slug, id)).rejects.toBeInstanceOf(NotFoundError);
    // The other tenant's owner cannot reach it through their own organization either.
    await expect(revokeInvitation(other.ctx, other.org.slug, id)).rejects.toBeInstanceOf(NotFoundError);
    const [row] = await getDb()
      .select()
      .from(invitations)
      .where(and(eq(invitations.id, invitation.id)));
    expect(row?.revokedAt).toBeNull();
    expect(row?.tokenHash).toBe(invitation.tokenHash);
  });

  it("refuses a malformed invitation id as a field error", async () => {
    const { org, ctx } = await newTenant("inv-id");
    const err = await revokeInvitation(ctx, org.slug, { invitationId: "nope" }).catch((e: unknown) => e);
    expect((err as ValidationError).fieldErrors?.invitationId).toBeTruthy();
  });
});

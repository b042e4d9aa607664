import { and, desc, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  requestPasswordReset,
  resetPassword,
  sendVerificationEmail,
  signUp,
  verifyCredentials,
  verifyEmail,
} from "@/lib/auth";
import { InvalidStateError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { outbox, users } from "@/lib/db/schema";
import { SECRET_PLACEHOLDER, unseal } from "@/lib/notify";
import { acceptInvitation, inviteMember } from "@/lib/tenancy";
import { newTenant, uniqueEmail } from "@/test/factories";

const account = () => ({
  name: "Alice",
  email: uniqueEmail("alice"),
  password: "alices-long-password",
  organizationName: "Alice Labs",
});

/** The newest email to `to`, with the link's token (what the deliverer would send). */
async function lastLink(to: string, path: string) {
  const [mail] = await getDb()
    .select()
    .from(outbox)
    .where(and(eq(outbox.toAddress, to), like(outbox.textBody, `%${path}%`)))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  if (!mail?.secretSealed) throw new Error(`no sealed link for ${to}`);
  expect(mail.textBody).toContain(`${path}${SECRET_PLACEHOLDER}`);
  return unseal(mail.secretSealed);
}

describe("email verification", () => {
  // Issue 12 item 6: a password sign-up never proved the address, and could then join Alice's team.
  it("an unproven address cannot accept an invitation; after the emailed link it can", async () => {
    const input = account();
    const { user } = await signUp({}, input);
    const actor = { kind: "user" as const, userId: user.id, email: user.email, isOperator: false };
    const { org, ctx } = await newTenant("verify-inv");
    const { token } = await inviteMember(ctx, org.slug, { email: input.email, role: "member" });

    const refused = await acceptInvitation({ actor }, token).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidStateError);
    expect((refused as InvalidStateError).details.reason).toBe("email_unverified");

    await verifyEmail({}, await lastLink(input.email, "/verify-email/"));
    const [row] = await getDb().select().from(users).where(eq(users.id, user.id));
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
    await expect(acceptInvitation({ actor }, token)).resolves.toMatchObject({ org: { slug: org.slug } });
  });

  it("a link works once, an older link stops working when a new one is sent, and garbage never works", async () => {
    const input = account();
    const { user } = await signUp({}, input);
    const first = await lastLink(input.email, "/verify-email/");
    const actor = { kind: "user" as const, userId: user.id, email: user.email, isOperator: false };
    await sendVerificationEmail({ actor });
    const second = await lastLink(input.email, "/verify-email/");
    expect(second).not.toBe(first);
    await expect(verifyEmail({}, first)).rejects.toBeInstanceOf(InvalidStateError);
    await expect(verifyEmail({}, "x".repeat(43))).rejects.toBeInstanceOf(InvalidStateError);
    await verifyEmail({}, second);
    await expect(verifyEmail({}, second)).rejects.toBeInstanceOf(InvalidStateError);
  });
});

describe("password reset", () => {
  it("the emailed link sets a new password once and proves the address; the old password stops working", async () => {
    const input = account();
    const { user } = await signUp({}, input);
    await requestPasswordReset({}, { email: input.email.toUpperCase() }, { clientIp: "203.0.113.50" });
    const token = await lastLink(input.email, "/reset-password/");
    await resetPassword({}, token, { password: "a-brand-new-password" });
    await expect(resetPassword({}, token, { password: "again-a-new-password" })).rejects.toBeInstanceOf(
      InvalidStateError,
    );
    const ip = `198.51.100.${Math.floor(Math.random() * 250)}`;
    await expect(
      verifyCredentials({}, { email: input.email, password: "a-brand-new-password" }, ip),
    ).resolves.toMatchObject({ id: user.id });
    await expect(
      verifyCredentials({}, { email: input.email, password: input.password }, ip),
    ).rejects.toThrow();
    const [row] = await getDb().select().from(users).where(eq(users.id, user.id));
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
  });

  it("answers the same for an unknown address and sends nothing", async () => {
    const nobody = uniqueEmail("nobody");
    await expect(
      requestPasswordReset({}, { email: nobody }, { clientIp: "203.0.113.51" }),
    ).resolves.toBeUndefined();
    expect(await getDb().$count(outbox, and(eq(outbox.toAddress, nobody)))).toBe(0);
  });

  it("an expired link does not work", async () => {
    const input = account();
    await signUp({}, input);
    const t0 = new Date();
    await requestPasswordReset({ now: () => t0 }, { email: input.email }, { clientIp: "203.0.113.52" });
    const token = await lastLink(input.email, "/reset-password/");
    const later = () => new Date(t0.getTime() + 61 * 60 * 1000);
    await expect(
      resetPassword({ now: later }, token, { password: "a-brand-new-password" }),
    ).rejects.toBeInstanceOf(InvalidStateError);
  });
});

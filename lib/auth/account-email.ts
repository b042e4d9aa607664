import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { writeAudit } from "@/lib/audit";
import { type Ctx, InvalidStateError, nowOf, parseInput } from "@/lib/core";
import { getDb, withTx } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { consumeEmailToken, sendEmailToken } from "./email-tokens";
import { hashPassword } from "./password";
import { hitRateLimit } from "./rate-limit";
import { emailSchema, passwordSchema } from "./schemas";

const badLink = () => new InvalidStateError("This link does not work", { reason: "token_invalid" });

/** Send (again) the link that proves the signed-in person reads their address. Quietly done if already so. */
export async function sendVerificationEmail(ctx: Ctx, opts: { locale?: string } = {}) {
  const now = nowOf(ctx);
  if (ctx.actor.kind !== "user") return;
  const userId = ctx.actor.userId;
  await hitRateLimit(getDb(), `verify-email:${userId}`, { max: 5, windowSeconds: 3600 }, now);
  await withTx(ctx.tx, async (tx) => {
    const [u] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!u || u.emailVerifiedAt) return;
    await sendEmailToken(tx, u, "verify_email", now, opts.locale);
  });
}

/** The verification link was opened and confirmed: the address is proven. */
export async function verifyEmail(ctx: Omit<Ctx, "actor">, token: string) {
  const now = nowOf(ctx);
  return withTx(ctx.tx, async (tx) => {
    const used = await consumeEmailToken(tx, token, "verify_email", now);
    if (!used) throw badLink();
    const [u] = await tx
      .update(users)
      .set({ emailVerifiedAt: now })
      .where(eq(users.id, used.userId))
      .returning({ id: users.id, email: users.email });
    if (!u) throw badLink();
    const actor = { kind: "user" as const, userId: u.id, email: u.email, isOperator: false };
    await writeAudit(tx, actor, {
      orgId: null,
      action: "user.email_verified",
      targetType: "user",
      targetId: u.id,
      at: now,
    });
    return u;
  });
}

/**
 * "Forgot your password": a reset link by email when an account has that address. The answer is the same
 * either way (no way to learn which addresses have accounts), and it is rate-limited per client address and
 * per email so it cannot be used to flood someone's inbox.
 */
export async function requestPasswordReset(
  ctx: Omit<Ctx, "actor">,
  raw: unknown,
  opts: { clientIp: string; locale?: string },
) {
  const { email } = parseInput(z.object({ email: emailSchema }), raw);
  const now = nowOf(ctx);
  const db = getDb();
  await hitRateLimit(db, `reset:ip:${opts.clientIp}`, { max: 10, windowSeconds: 3600 }, now);
  await hitRateLimit(db, `reset:email:${email}`, { max: 3, windowSeconds: 3600 }, now);
  await withTx(ctx.tx, async (tx) => {
    const [u] = await tx.select().from(users).where(eq(users.email, email)).for("update");
    if (u) await sendEmailToken(tx, u, "reset_password", now, opts.locale);
  });
}

/**
 * Set a new password from a reset link. Opening the link proves the mailbox, so the address counts as
 * verified from now on; a squatter who registered the address first loses the account to its real owner.
 */
export async function resetPassword(ctx: Omit<Ctx, "actor">, token: string, raw: unknown) {
  const { password } = parseInput(z.object({ password: passwordSchema }), raw);
  const now = nowOf(ctx);
  const passwordHash = await hashPassword(password);
  return withTx(ctx.tx, async (tx) => {
    const used = await consumeEmailToken(tx, token, "reset_password", now);
    if (!used) throw badLink();
    const [u] = await tx.select().from(users).where(eq(users.id, used.userId)).for("update");
    if (!u) throw badLink();
    await tx
      .update(users)
      .set({ passwordHash, emailVerifiedAt: u.emailVerifiedAt ?? now })
      .where(eq(users.id, u.id));
    const actor = { kind: "user" as const, userId: u.id, email: u.email, isOperator: false };
    await writeAudit(tx, actor, {
      orgId: null,
      action: "user.password_reset",
      targetType: "user",
      targetId: u.id,
      at: now,
    });
    return { id: u.id, email: u.email };
  });
}

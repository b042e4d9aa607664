import "server-only";
import { eq } from "drizzle-orm";
import { writeAudit } from "@/lib/audit";
import { type Ctx, nowOf, parseInput, ValidationError } from "@/lib/core";
import { type Executor, getDb, withTx } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { createOrganizationWithOwner } from "@/lib/tenancy";
import { sendEmailToken } from "./email-tokens";
import { AUTH_FIELD_MESSAGES } from "./field-messages";
import { hashPassword } from "./password";
import { hitRateLimit, signUpLimit } from "./rate-limit";
import { type SignUpInput, signUpSchema } from "./schemas";

export async function findUserByEmail(exec: Executor, email: string) {
  const [u] = await exec.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return u ?? null;
}

export async function getUserById(id: string) {
  const [u] = await getDb().select().from(users).where(eq(users.id, id)).limit(1);
  return u ?? null;
}

/**
 * Sign up: a user, their organization (they are its owner) and a default project, in one transaction.
 * A taken email is a field error and nothing is written. With a client IP (the web form), attempts are
 * rate-limited per address.
 */
export async function signUp(
  ctx: Omit<Ctx, "actor">,
  raw: SignUpInput | Record<string, unknown>,
  opts: { clientIp?: string; locale?: string } = {},
) {
  const input = parseInput(signUpSchema, raw);
  const now = nowOf(ctx);
  // Counted outside the sign-up transaction so a refused or failed attempt still uses up the window.
  if (opts.clientIp) await hitRateLimit(getDb(), `signup:ip:${opts.clientIp}`, signUpLimit(), now);
  const passwordHash = await hashPassword(input.password);
  return withTx(ctx.tx, async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ email: input.email, name: input.name, passwordHash, createdAt: now })
      .onConflictDoNothing({ target: users.email })
      .returning();
    if (!user) throw ValidationError.field("email", AUTH_FIELD_MESSAGES.emailTaken);
    const actor = { kind: "user" as const, userId: user.id, email: user.email, isOperator: false };
    await writeAudit(tx, actor, {
      orgId: null,
      action: "user.signed_up",
      targetType: "user",
      targetId: user.id,
      at: now,
    });
    const { org, project } = await createOrganizationWithOwner(tx, actor, {
      name: input.organizationName,
      ownerId: user.id,
      now,
    });
    // The address is only claimed until its owner opens this link (needed to join by invitation or SSO).
    await sendEmailToken(tx, user, "verify_email", now, opts.locale);
    return { user, org, project };
  });
}

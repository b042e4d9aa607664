import "server-only";
import { writeAudit } from "@/lib/audit";
import { type Ctx, InvalidStateError, NotFoundError, nowOf, parseInput, ValidationError } from "@/lib/core";
import { withTx } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { acceptInvitationInTx, findInvitationByToken } from "@/lib/tenancy";
import { AUTH_FIELD_MESSAGES } from "./field-messages";
import { hashPassword } from "./password";
import { invitedSignUpSchema } from "./schemas";

/**
 * A new person creates their account from an invitation link and joins the inviting organization, in one
 * transaction: the account's email is the invited address (receiving the link proves it), and no organization
 * of their own is created. If the invitation cannot be accepted, no account is left behind either.
 */
export async function signUpWithInvitation(ctx: Omit<Ctx, "actor">, token: string, raw: unknown) {
  const input = parseInput(invitedSignUpSchema, raw);
  const now = nowOf(ctx);
  const passwordHash = await hashPassword(input.password);
  return withTx(ctx.tx, async (tx) => {
    const invitation = await findInvitationByToken({ tx, now: () => now }, token);
    if (!invitation) throw new NotFoundError("Invitation");
    if (invitation.status !== "pending") {
      throw new InvalidStateError("This invitation can no longer be used", {
        reason: `invitation_${invitation.status}`,
      });
    }
    const [user] = await tx
      .insert(users)
      // Receiving the invitation link proves the address.
      .values({
        email: invitation.email,
        name: input.name,
        passwordHash,
        createdAt: now,
        emailVerifiedAt: now,
      })
      .onConflictDoNothing({ target: users.email })
      .returning();
    if (!user) {
      throw ValidationError.field("email", AUTH_FIELD_MESSAGES.emailTakenInvited);
    }
    const actor = { kind: "user" as const, userId: user.id, email: user.email, isOperator: false };
    await writeAudit(tx, actor, {
      orgId: null,
      action: "user.signed_up",
      targetType: "user",
      targetId: user.id,
      data: { via: "invitation" },
      at: now,
    });
    const accepted = await acceptInvitationInTx(tx, actor, token, now);
    return { user, org: accepted.org, role: accepted.role };
  });
}

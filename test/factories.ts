import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { signUp } from "@/lib/auth";
import type { UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { outbox, users } from "@/lib/db/schema";

/** A fresh user + organization per call, so test files never share tenant state. */
export async function newTenant(label = "t") {
  const id = randomUUID().slice(0, 8);
  const { user, org, project } = await signUp(
    {},
    {
      name: `${label} owner`,
      email: `${label}-${id}@example.test`,
      password: "correct horse battery",
      organizationName: `${label} org ${id}`,
    },
  );
  // An owner who already opened the sign-up verification link: their address is proven and that email is
  // out of the outbox, so suites that count delivered mail see only their own.
  await getDb().update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
  await getDb().delete(outbox).where(eq(outbox.toAddress, user.email));
  const actor: UserActor = { kind: "user", userId: user.id, email: user.email, isOperator: false };
  return { user, org, project, actor, ctx: { actor } };
}

export function uniqueEmail(label = "u"): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`;
}

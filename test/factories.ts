import { randomUUID } from "node:crypto";
import { signUp } from "@/lib/auth";
import type { UserActor } from "@/lib/core";

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
  const actor: UserActor = { kind: "user", userId: user.id, email: user.email, isOperator: false };
  return { user, org, project, actor, ctx: { actor } };
}

export function uniqueEmail(label = "u"): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`;
}

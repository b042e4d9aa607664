import "server-only";
import type { OrgRole } from "@/lib/access";
import { hashPassword } from "@/lib/auth";
import type { Tx } from "@/lib/db/client";
import { memberships, projects, users } from "@/lib/db/schema";
import { createOrganizationWithOwner } from "@/lib/tenancy";

export type DemoUser = { email: string; password: string; name: string };

/** Create a user with a password; operator flag optional. */
export async function createUser(tx: Tx, u: DemoUser & { isOperator?: boolean }) {
  const [row] = await tx
    .insert(users)
    .values({
      email: u.email.toLowerCase(),
      name: u.name,
      passwordHash: await hashPassword(u.password),
      isOperator: u.isOperator ?? false,
      // Seeded by the operator for the demo: their addresses count as proven.
      emailVerifiedAt: new Date(),
    })
    .returning();
  if (!row) throw new Error("user insert returned nothing");
  return row;
}

/** An organization with an owner, extra members by role, and dev/staging/prod projects. */
export async function createDemoOrg(
  tx: Tx,
  input: { name: string; owner: DemoUser; members?: Array<DemoUser & { role: OrgRole }> },
) {
  const owner = await createUser(tx, input.owner);
  const actor = { kind: "system" as const, name: "seed" };
  const { org } = await createOrganizationWithOwner(tx, actor, { name: input.name, ownerId: owner.id });
  for (const m of input.members ?? []) {
    const user = await createUser(tx, m);
    await tx.insert(memberships).values({ orgId: org.id, userId: user.id, role: m.role });
  }
  await tx.insert(projects).values([
    { orgId: org.id, slug: "research", name: "Research", environment: "development" },
    { orgId: org.id, slug: "staging", name: "Staging", environment: "staging" },
    { orgId: org.id, slug: "inference-prod", name: "Inference (prod)", environment: "production" },
  ]);
  return { org, owner };
}

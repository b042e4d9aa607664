import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { OrgRole } from "@/lib/access";
import { signUp } from "@/lib/auth";
import type { Ctx, UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { memberships, outbox, users } from "@/lib/db/schema";
import { seedImages } from "@/lib/provisioning/images";
import { ensureCatalogSeeded } from "@/lib/seed/catalog";

/**
 * The one set of test factories every suite uses: a tenant, a user, a member of each role, an organization
 * whose `as(role)` hands out contexts, a settable clock and the demo catalog.
 */

/** A settable clock: tests move time forward instead of sleeping. */
export function testClock(start: Date | string = new Date("2030-01-06T09:00:00Z")) {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    advance: (ms: number) => {
      t += ms;
    },
    set: (d: Date | string) => {
      t = new Date(d).getTime();
    },
  };
}
export type TestClock = ReturnType<typeof testClock>;

/** The demo catalog (regions, GPU models, types, prices) and the image catalog, seeded once, idempotently. */
export async function ensureCatalog() {
  await ensureCatalogSeeded();
  await getDb().transaction((tx) => seedImages(tx));
}

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

/** A user (no password, no organization of their own) and their actor context. */
export async function newUser(label = "u") {
  const [user] = await getDb()
    .insert(users)
    .values({
      email: uniqueEmail(label),
      name: `${label} ${randomUUID().slice(0, 4)}`,
      emailVerifiedAt: new Date(),
    })
    .returning();
  if (!user) throw new Error("user insert returned nothing");
  const actor: UserActor = { kind: "user", userId: user.id, email: user.email, isOperator: false };
  const ctx: Ctx = { actor };
  return { user, actor, ctx };
}

/** A new user who is a member of orgId with role. */
export async function addMember(orgId: string, role: OrgRole, label: string = role) {
  const u = await newUser(label);
  await getDb().insert(memberships).values({ orgId, userId: u.user.id, role });
  return u;
}

/**
 * A fresh organization with its owner, on `clock`: `ctx` is the owner's, `as(role)` adds a member of that
 * role and returns their context on the same clock.
 */
export async function newOrg(label = "org", clock: TestClock = testClock()) {
  const t = await newTenant(label);
  const ctx: Ctx = { actor: t.actor, now: clock.now };
  async function as(role: OrgRole): Promise<Ctx & { actor: UserActor }> {
    const m = await addMember(t.org.id, role);
    return { actor: m.actor, now: clock.now };
  }
  return { ...t, ctx, slug: t.org.slug, clock, as };
}
export type TestOrg = Awaited<ReturnType<typeof newOrg>>;

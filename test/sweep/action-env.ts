/// <reference types="vite/client" />
import { eq } from "drizzle-orm";
import type { OrgRole } from "@/lib/access";
import { type Ctx, ForbiddenError, NotFoundError, UnauthorizedError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { newOrg, type TestFleet } from "@/lib/provisioning/__tests__/fixtures";
import { uniqueEmail } from "../factories";
import type { ActionOrg } from "./action-calls";
import { session } from "./action-mocks";

/**
 * Calling server actions outside Next.js (the action sweep and the role matrix; the mocks: action-mocks.ts):
 * the actions found in the source tree, one call with its outcome, an operator, and a fresh organization with
 * a member of every role.
 */

export type ServerAction = (...args: unknown[]) => Promise<unknown>;
export const actionSources = import.meta.glob<string>(["/app/**/*.{ts,tsx}", "/components/**/*.{ts,tsx}"], {
  query: "?raw",
  import: "default",
  eager: true,
});
const actionModules = import.meta.glob<Record<string, unknown>>(["/app/**/*.ts", "/components/**/*.ts"]);

const keyOf = (file: string, name: string) =>
  `${file.startsWith("/app/") ? file.slice("/app/".length) : `@${file}`}#${name}`;

/** Every export of a "use server" file, by the key access.ts classifies it under. */
export function serverActions(): Array<{ key: string; file: string; name: string }> {
  const out: Array<{ key: string; file: string; name: string }> = [];
  for (const [file, text] of Object.entries(actionSources)) {
    if (!/^\s*["']use server["']/.test(text)) continue;
    for (const m of text.matchAll(/^export\s+(?:async\s+)?(?:function|const)\s+(\w+)/gm)) {
      out.push({ key: keyOf(file, m[1] as string), file, name: m[1] as string });
    }
  }
  return out.sort((x, y) => x.key.localeCompare(y.key));
}

/** The server action behind a key of ACTION_ACCESS. */
export async function loadAction(key: string): Promise<ServerAction> {
  const found = serverActions().find((a) => a.key === key);
  if (!found) throw new Error(`no server action ${key}`);
  const fn = (await actionModules[found.file]?.())?.[found.name];
  if (typeof fn !== "function") throw new Error(`${key} is not a function`);
  return fn as ServerAction;
}

export type Outcome = { redirect?: string; result?: { ok: boolean; data?: unknown }; errors: unknown[] };

/** Call an action as the signed-in user userId (null: signed out), the way a form posts it. */
export async function callAction(fn: ServerAction, userId: string | null, args: unknown[]): Promise<Outcome> {
  session.userId = userId;
  session.errors = [];
  try {
    return { result: (await fn(...args)) as Outcome["result"], errors: session.errors };
  } catch (err) {
    // redirect() throws Next.js's NEXT_REDIRECT error: "NEXT_REDIRECT;replace;/signin;307;".
    const digest = (err as { digest?: unknown }).digest;
    if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT;"))
      return { redirect: digest.split(";")[2], errors: session.errors };
    throw err;
  } finally {
    session.userId = null;
  }
}

export const sentToSignIn = (o: Outcome) =>
  o.redirect === "/signin" || o.errors.some((e) => e instanceof UnauthorizedError);
export const gateErrors = (o: Outcome) =>
  o.errors.filter(
    (e) => e instanceof ForbiddenError || e instanceof NotFoundError || e instanceof UnauthorizedError,
  );

/** A platform operator (a signed-in user with its own organization, member of no other). */
export async function newOperator(): Promise<Ctx & { userId: string }> {
  const op = await newOrg("act-op");
  await getDb().update(users).set({ isOperator: true }).where(eq(users.id, op.user.id));
  return { actor: { ...op.actor, isOperator: true }, userId: op.user.id };
}

/** A fresh organization with a member of each role, a target member and an invitee (see ActionOrg). */
export async function actionOrg(fleet: TestFleet, operator: Ctx): Promise<ActionOrg> {
  const a = await newOrg("act-a");
  const userIds = { owner: a.user.id } as Record<OrgRole, string>;
  for (const role of ["admin", "member", "viewer"] as const) {
    const ctx = await a.as(role);
    if (ctx.actor.kind !== "user") throw new Error("unreachable");
    userIds[role] = ctx.actor.userId;
  }
  const t = await a.as("member");
  const [invitee] = await getDb()
    .insert(users)
    .values({ email: uniqueEmail("invitee"), name: "Invitee", emailVerifiedAt: new Date() })
    .returning();
  if (t.actor.kind !== "user" || !invitee) throw new Error("unreachable");
  return {
    slug: a.slug,
    orgId: a.org.id,
    projectId: a.project.id,
    fleet,
    owner: a.ctx,
    operator,
    userIds,
    target: { userId: t.actor.userId, email: t.actor.email },
    invitee: { userId: invitee.id, email: invitee.email },
    as: a.as,
  };
}

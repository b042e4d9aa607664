/// <reference types="vite/client" />
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { OrgRole } from "@/lib/access";
import { type Ctx, ForbiddenError, NotFoundError, UnauthorizedError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { newFleet, newOrg, type TestFleet } from "@/lib/provisioning/__tests__/fixtures";
import { uniqueEmail } from "../factories";
import { ACTION_ACCESS, isOrgLevel, type Level, rolesBelow } from "./access";
import { ACTION_CALLS, type ActionCall, type ActionOrg } from "./action-calls";
import { tenantDigest } from "./fixture";

/**
 * The server action sweep. Every export of a "use server" file (under app/ or components/) is found from the
 * source tree, must be classified in ACTION_ACCESS and have a call in ACTION_CALLS, and is then called the way
 * a form posts it, as each kind of caller: signed out (sent to sign in), each organization role below the one
 * it needs (Forbidden), another organization's owner and a platform operator who is not a member (NotFound,
 * also with this organization's ids under their own organization), or, for operator actions, every
 * organization role (Forbidden). Every refused call is made with valid input, so a missing gate would write:
 * a digest of every row the organizations own (and any watched global rows) must not change. Last, the least
 * allowed caller gets through, so the refusals above are about who calls.
 *
 * Only the Next.js request scope is replaced: the session (next-auth's getServerSession, read by the real
 * lib/auth/session), cookies/headers, revalidation and the message catalog.
 */
const session = vi.hoisted(() => ({ userId: null as string | null, errors: [] as unknown[] }));
vi.mock("next-auth", async (orig) => ({
  ...(await orig<Record<string, unknown>>()),
  getServerSession: async () => (session.userId ? { user: { id: session.userId } } : null),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {}, revalidateTag: () => {} }));
vi.mock("next/headers", () => {
  const jar = new Map<string, { name: string; value: string }>();
  const cookies = {
    get: (n: string) => jar.get(n),
    getAll: () => [...jar.values()],
    has: (n: string) => jar.has(n),
    set: (n: string, value: string) => void jar.set(n, { name: n, value }),
    delete: (n: string) => void jar.delete(n),
  };
  return {
    cookies: async () => cookies,
    headers: async () => new Headers({ host: "forja.test", origin: "http://forja.test" }),
  };
});
vi.mock("next-intl/server", () => {
  const t = Object.assign((key: string) => key, { has: () => false, rich: (key: string) => key });
  return { getTranslations: async () => t, getLocale: async () => "en", getFormatter: async () => ({}) };
});
// Every error an action maps for its form, so a refusal is checked by its class, not by its words.
vi.mock("@/app/_kit/form-error", async (orig) => {
  const real = await orig<typeof import("@/app/_kit/form-error")>();
  return {
    formError: (err: unknown, label: string, area?: string) => {
      session.errors.push(err);
      return real.formError(err, label, area);
    },
  };
});

type ServerAction = (...args: unknown[]) => Promise<unknown>;
const sources = import.meta.glob<string>(["/app/**/*.{ts,tsx}", "/components/**/*.{ts,tsx}"], {
  query: "?raw",
  import: "default",
  eager: true,
});
const modules = import.meta.glob<Record<string, unknown>>(["/app/**/*.ts", "/components/**/*.ts"]);

const keyOf = (file: string, name: string) =>
  `${file.startsWith("/app/") ? file.slice("/app/".length) : `@${file}`}#${name}`;

function serverActions(): Array<{ key: string; file: string; name: string }> {
  const out: Array<{ key: string; file: string; name: string }> = [];
  for (const [file, text] of Object.entries(sources)) {
    if (!/^\s*["']use server["']/.test(text)) continue;
    for (const m of text.matchAll(/^export\s+(?:async\s+)?(?:function|const)\s+(\w+)/gm)) {
      out.push({ key: keyOf(file, m[1] as string), file, name: m[1] as string });
    }
  }
  return out.sort((x, y) => x.key.localeCompare(y.key));
}

type Caller = "signed-out" | OrgRole | "operator" | "other-tenant";
type Outcome = { redirect?: string; result?: { ok: boolean; data?: unknown }; errors: unknown[] };

async function call(fn: ServerAction, userId: string | null, args: unknown[]): Promise<Outcome> {
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

const sentToSignIn = (o: Outcome) =>
  o.redirect === "/signin" || o.errors.some((e) => e instanceof UnauthorizedError);
const gateErrors = (o: Outcome) =>
  o.errors.filter(
    (e) => e instanceof ForbiddenError || e instanceof NotFoundError || e instanceof UnauthorizedError,
  );

let fleet: TestFleet;
let other: Awaited<ReturnType<typeof newOrg>>;
let operator: Ctx & { userId: string };
const found = serverActions();
const figures = { actions: 0, refused: 0 };
afterAll(() =>
  console.log(`[action sweep] ${figures.actions} actions, ${figures.refused} refused calls, none wrote`),
);
beforeAll(async () => {
  fleet = await newFleet([{ gpus: 8 }]);
  other = await newOrg("act-b");
  const op = await newOrg("act-op");
  await getDb().update(users).set({ isOperator: true }).where(eq(users.id, op.user.id));
  operator = { actor: { ...op.actor, isOperator: true }, userId: op.user.id };
}, 120_000);

/** A fresh organization per action (a removed member or a renamed organization must not leak into the next). */
async function actionOrg(): Promise<ActionOrg> {
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
  };
}

async function snapshot(o: ActionOrg, c: ActionCall): Promise<string[]> {
  const watched = c.watch ? (await getDb().execute<{ v: string }>(c.watch)).rows[0]?.v : "";
  return [await tenantDigest(o.orgId), await tenantDigest(other.org.id), String(watched)];
}

function callersFor(level: Level): {
  refused: Array<[Caller, "signin" | "forbidden" | "not-found"]>;
  least: Caller;
} {
  if (level === "public") return { refused: [], least: "signed-out" };
  const refused: Array<[Caller, "signin" | "forbidden" | "not-found"]> = [["signed-out", "signin"]];
  if (level === "signed-in") return { refused, least: "owner" };
  if (level === "operator") {
    for (const r of ["viewer", "member", "admin", "owner", "other-tenant"] as const)
      refused.push([r, "forbidden"]);
    return { refused, least: "operator" };
  }
  for (const r of rolesBelow(level)) refused.push([r, "forbidden"]);
  refused.push(["other-tenant", "not-found"], ["operator", "not-found"]);
  return { refused, least: level };
}

describe("server action sweep", () => {
  it("finds every server action, each classified and with a call, and no inline action the sweep cannot see", () => {
    expect(found.length).toBeGreaterThan(30);
    const keys = found.map((f) => f.key);
    const unclassified = keys.filter((k) => !(k in ACTION_ACCESS) || !(k in ACTION_CALLS));
    const stale = [...Object.keys(ACTION_ACCESS), ...Object.keys(ACTION_CALLS)].filter(
      (k) => !keys.includes(k),
    );
    expect(
      { unclassified, stale },
      "classify each action in access.ts and give it a call in action-calls.ts",
    ).toEqual({ unclassified: [], stale: [] });
    // A "use server" inside a function body makes an action this sweep would not find.
    const inline = Object.entries(sources)
      .filter(([, text]) => !/^\s*["']use server["']/.test(text) && /^\s+["']use server["']/m.test(text))
      .map(([file]) => file);
    expect(inline).toEqual([]);
  });

  for (const { key, file, name } of found) {
    const level = ACTION_ACCESS[key] ?? "public";
    const recipe = ACTION_CALLS[key];
    it.runIf(recipe)(`${key} (${level})`, async () => {
      if (!recipe) return;
      const fn = (await modules[file]?.())?.[name] as ServerAction;
      expect(typeof fn).toBe("function");
      const o = await actionOrg();
      const c = await recipe(o);
      const orgScoped = isOrgLevel(level);
      const argsFor = (slug: string) => (orgScoped ? [slug, ...c.args] : c.args);
      const idOf = (who: Caller): string | null =>
        who === "signed-out"
          ? null
          : who === "operator"
            ? operator.userId
            : who === "other-tenant"
              ? other.user.id
              : o.userIds[who];

      const attempts: Array<[Caller, "signin" | "forbidden" | "not-found", string]> = [];
      for (const [who, expected] of callersFor(level).refused) {
        attempts.push([who, expected, o.slug]);
        // Their own organization's slug with this organization's ids in the body: still nothing there.
        if (who === "other-tenant" && orgScoped && c.ids) attempts.push([who, expected, other.slug]);
      }
      for (const [who, expected, slug] of attempts) {
        const before = await snapshot(o, c);
        const out = await call(fn, idOf(who), argsFor(slug));
        const label = `${who} on ${slug === o.slug ? "this" : "their own"} organization`;
        if (expected === "signin") expect(sentToSignIn(out), label).toBe(true);
        else {
          const cls = expected === "forbidden" ? ForbiddenError : NotFoundError;
          expect(
            out.errors.some((e) => e instanceof cls),
            `${label}: ${String(out.errors[0] ?? JSON.stringify(out))}`,
          ).toBe(true);
          if (!c.perItem) expect(out.result?.ok, label).toBe(false);
        }
        expect(await snapshot(o, c), `${label} changed nothing`).toEqual(before);
        figures.refused++;
      }
      figures.actions++;

      const least = callersFor(level).least;
      const out = await call(fn, c.leastUserId ?? idOf(least), argsFor(o.slug));
      expect(sentToSignIn(out), `${least} is not sent to sign in`).toBe(false);
      expect(gateErrors(out).map(String), `${least} gets through`).toEqual([]);
      // Through means done: it answered ok or moved on to a page of its own (not one of refusal).
      if (!c.notOk)
        expect(out.result?.ok || out.redirect !== undefined, `${least}: ${String(out.errors[0])}`).toBe(true);
    });
  }

  it("the digest sees a write by any of these actions' tables (the positive control of 'changed nothing')", async () => {
    const o = await actionOrg();
    const before = await tenantDigest(o.orgId);
    await getDb().execute(sql`update organizations set name = name || ' (touched)' where id = ${o.orgId}`);
    expect(await tenantDigest(o.orgId)).not.toEqual(before);
  });
});

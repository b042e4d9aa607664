/// <reference types="vite/client" />
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { OrgRole } from "@/lib/access";
import { type Ctx, ForbiddenError, NotFoundError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { newFleet, newOrg, type TestFleet } from "@/lib/provisioning/__tests__/fixtures";
import { ACTION_ACCESS, isOrgLevel, type Level, rolesBelow } from "./access";
import { ACTION_CALLS, type ActionCall, type ActionOrg } from "./action-calls";
import {
  actionOrg as actionOrg0,
  actionSources,
  callAction as call,
  gateErrors,
  loadAction,
  newOperator,
  sentToSignIn,
  serverActions,
} from "./action-env";
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
vi.mock("next-auth", async (orig) => (await import("./action-mocks")).mocks.nextAuth(orig));
vi.mock("next/cache", async () => (await import("./action-mocks")).mocks.nextCache);
vi.mock("next/headers", async () => (await import("./action-mocks")).mocks.nextHeaders);
vi.mock("next-intl/server", async () => (await import("./action-mocks")).mocks.nextIntl);
vi.mock("@/app/_kit/form-error", async (orig) => (await import("./action-mocks")).mocks.formError(orig));

type Caller = "signed-out" | OrgRole | "operator" | "other-tenant";

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
  operator = await newOperator();
}, 120_000);
// A fresh organization per action (a removed member or a renamed organization must not leak into the next).
const actionOrg = () => actionOrg0(fleet, operator);

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
    const inline = Object.entries(actionSources)
      .filter(([, text]) => !/^\s*["']use server["']/.test(text) && /^\s+["']use server["']/m.test(text))
      .map(([file]) => file);
    expect(inline).toEqual([]);
  });

  for (const { key } of found) {
    const level = ACTION_ACCESS[key] ?? "public";
    const recipe = ACTION_CALLS[key];
    it.runIf(recipe)(`${key} (${level})`, async () => {
      if (!recipe) return;
      const fn = await loadAction(key);
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

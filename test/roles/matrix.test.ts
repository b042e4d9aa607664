/// <reference types="vite/client" />
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { OrgRole } from "@/lib/access";
import { type Ctx, ForbiddenError, NotFoundError, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { createApiToken } from "@/lib/tenancy";
import { ACTION_ACCESS, API_ACCESS, isOrgLevel, type Level, routePattern } from "../sweep/access";
import { ACTION_CALLS, type ActionCall, type ActionOrg } from "../sweep/action-calls";
import { actionOrg, callAction, gateErrors, loadAction, sentToSignIn } from "../sweep/action-env";
import { type SweepFixture, sweepFixture, tenantDigest } from "../sweep/fixture";
import { API_CALLS, type ApiCall } from "./api-calls";
import {
  CALLERS,
  type Caller,
  MATRIX,
  type MatrixRow,
  matrixMarkdown,
  NOT_IN_MATRIX,
  type Refusal,
  refusalFor,
} from "./matrix";

/**
 * The role matrix (issue 8): every row of test/roles/matrix.ts is done by each of viewer, member, admin, owner
 * (of organization A), a platform operator and another organization's admin, with a valid request, through the
 * server action and through the API. The allowed ones get through (ok, a 2xx); the rest get the refusal the
 * row says and write nothing (a digest of every row A owns, and the global rows the call names). The API
 * sweep's fixture gives A and its tokens; the action sweep's helpers call the actions as a form posts them.
 */
vi.mock("next-auth", async (orig) => (await import("../sweep/action-mocks")).mocks.nextAuth(orig));
vi.mock("next/cache", async () => (await import("../sweep/action-mocks")).mocks.nextCache);
vi.mock("next/headers", async () => (await import("../sweep/action-mocks")).mocks.nextHeaders);
vi.mock("next-intl/server", async () => (await import("../sweep/action-mocks")).mocks.nextIntl);
vi.mock("@/app/_kit/form-error", async (orig) =>
  (await import("../sweep/action-mocks")).mocks.formError(orig),
);

let fx: SweepFixture;
let operator: Ctx & { userId: string };
let otherAdmin: { userId: string; token: string };
let operatorToken: string;
const figures = { actionCalls: 0, apiCalls: 0, refused: 0 };

beforeAll(async () => {
  fx = await sweepFixture();
  operator = { actor: fx.operatorActor, userId: fx.operatorActor.userId };
  const b = await fx.b.as("admin");
  otherAdmin = {
    userId: b.actor.userId,
    token: (await createApiToken(b, fx.b.slug, { name: "matrix" })).secret,
  };
  // The operator's API: an admin-scope token, minted in the operator's signed-in console session.
  operatorToken = (await createApiToken(operator, fx.op.slug, { name: "matrix", scope: "admin" })).secret;
}, 120_000);
afterAll(() =>
  console.log(
    `[role matrix] ${MATRIX.length} rows, ${figures.actionCalls} action calls, ${figures.apiCalls} API calls, ${figures.refused} refused, none wrote`,
  ),
);

/** Who may call an entry point of this access.ts level, among the matrix's callers. */
function impliedBy(level: Level): Caller[] {
  if (level === "operator") return ["operator"];
  const ranks: OrgRole[] = ["viewer", "member", "admin", "owner"];
  const i = ranks.indexOf(level as OrgRole);
  return i < 0 ? [...CALLERS] : ranks.slice(i);
}

const rowName = (r: MatrixRow) => `${r.area}: ${r.what}`;

describe("role matrix: the table", () => {
  it("names every admin, owner and operator entry point, and each row agrees with access.ts", () => {
    const named = new Set(MATRIX.flatMap((r) => [r.action, r.api]).filter(Boolean) as string[]);
    const strong = (level: Level) => ["admin", "owner", "operator"].includes(level);
    const entries = [...Object.entries(ACTION_ACCESS), ...Object.entries(API_ACCESS)];
    const missing = entries
      .filter(([k, l]) => strong(l) && !named.has(k) && !(k in NOT_IN_MATRIX))
      .map(([k]) => k);
    expect(missing, "add a row to test/roles/matrix.ts (and regenerate docs/roles.md)").toEqual([]);

    const wrong: string[] = [];
    for (const row of MATRIX) {
      for (const key of [row.action, row.api]) {
        if (!key) continue;
        const level = ACTION_ACCESS[key] ?? API_ACCESS[key];
        if (!level) {
          wrong.push(`${rowName(row)}: ${key} is not in access.ts`);
          continue;
        }
        const implied = impliedBy(level);
        const allowed = [...row.allowed].sort();
        if (!row.narrower && allowed.join() !== [...implied].sort().join())
          wrong.push(`${rowName(row)}: allows ${allowed} but access.ts gives ${key} to ${implied}`);
        if (row.narrower && !(allowed.every((c) => implied.includes(c)) && allowed.length < implied.length))
          wrong.push(`${rowName(row)}: a narrower row must allow a strict subset of ${implied}`);
      }
      if (row.action && !row.actionCall && !ACTION_CALLS[row.action])
        wrong.push(`${rowName(row)}: no action call`);
      if (row.api && !row.apiCall && !API_CALLS[row.api]) wrong.push(`${rowName(row)}: no API call`);
    }
    expect(wrong).toEqual([]);
  });

  it("is the table docs/roles.md shows (ROLES_DOC=write regenerates it)", () => {
    const file = path.join(process.cwd(), "docs/roles.md");
    const text = fs.readFileSync(file, "utf8");
    const [start, end] = ["<!-- role-matrix:start -->", "<!-- role-matrix:end -->"];
    const i = text.indexOf(start);
    const j = text.indexOf(end);
    expect(i >= 0 && j > i, "docs/roles.md keeps the table between its markers").toBe(true);
    const want = `${start}\n${matrixMarkdown()}\n${end}`;
    if (process.env.ROLES_DOC === "write")
      fs.writeFileSync(file, text.slice(0, i) + want + text.slice(j + end.length));
    else expect(text.slice(i, j + end.length), "run ROLES_DOC=write npx vitest run test/roles").toBe(want);
  });
});

const ERROR_OF: Record<Refusal, new (...a: never[]) => Error> = {
  forbidden: ForbiddenError,
  "not-found": NotFoundError,
  field: ValidationError,
};
const STATUS_OF: Record<Refusal, number> = { forbidden: 403, "not-found": 404, field: 422 };
/** Refused callers first: an allowed call may change what the next one finds (a suspension, a removal). */
const inOrder = (row: MatrixRow) => [
  ...CALLERS.filter((c) => !row.allowed.includes(c)),
  ...CALLERS.filter((c) => row.allowed.includes(c)),
];

async function watched(sqlText: ActionCall["watch"] | ApiCall["watch"]): Promise<string> {
  return sqlText ? String((await getDb().execute<{ v: string }>(sqlText)).rows[0]?.v) : "";
}

describe("role matrix: server actions", () => {
  for (const row of MATRIX.filter((r) => r.action)) {
    const key = row.action as string;
    it(`${rowName(row)} (${key.split("#")[1]})`, async () => {
      const fn = await loadAction(key);
      const o: ActionOrg = await actionOrg(fx.fleet, operator);
      const userOf = (who: Caller) =>
        who === "operator" ? operator.userId : who === "other-admin" ? otherAdmin.userId : o.userIds[who];
      const scoped = isOrgLevel(ACTION_ACCESS[key] as Level);
      for (const who of inOrder(row)) {
        const c = await (row.actionCall ?? (ACTION_CALLS[key] as (o: ActionOrg) => Promise<ActionCall>))(o);
        const args = scoped ? [o.slug, ...c.args] : c.args;
        const before = [await tenantDigest(o.orgId), await watched(c.watch)];
        const out = await callAction(fn, userOf(who), args);
        figures.actionCalls++;
        if (row.allowed.includes(who)) {
          expect(sentToSignIn(out), `${who} is not sent to sign in`).toBe(false);
          expect(gateErrors(out).map(String), `${who} gets through`).toEqual([]);
          if (!c.notOk)
            expect(out.result?.ok || out.redirect !== undefined, `${who}: ${String(out.errors[0])}`).toBe(
              true,
            );
          continue;
        }
        const refusal = refusalFor(row, who);
        expect(
          out.errors.some((e) => e instanceof ERROR_OF[refusal]),
          `${who} is refused (${refusal}): ${String(out.errors[0] ?? JSON.stringify(out))}`,
        ).toBe(true);
        expect(out.result?.ok, who).toBe(false);
        expect([await tenantDigest(o.orgId), await watched(c.watch)], `${who} changed nothing`).toEqual(
          before,
        );
        figures.refused++;
      }
    });
  }
});

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const routeModules = import.meta.glob<Record<string, unknown>>("/app/api/**/route.ts");

async function handlerOf(key: string): Promise<Handler> {
  const [method, pattern] = key.split(" ");
  const file = Object.keys(routeModules).find((f) => routePattern(f) === pattern);
  const h = file ? (await routeModules[file]?.())?.[method as string] : undefined;
  if (typeof h !== "function") throw new Error(`no route handler for ${key}`);
  return h as Handler;
}

async function send(key: string, call: ApiCall, token: string): Promise<Response> {
  const [method, pattern] = key.split(" ") as [string, string];
  const params: Record<string, string> = { org: fx.a.slug, ...call.params };
  const url = `http://forja.test${pattern.replace(/\[([^\]]+)\]/g, (_, n: string) => encodeURIComponent(params[n] ?? ""))}${call.query ? `?${call.query}` : ""}`;
  const headers = new Headers({ "content-type": "application/json", authorization: `Bearer ${token}` });
  const withBody = method !== "GET" && method !== "DELETE";
  const req = new Request(url, {
    method,
    headers,
    body: withBody ? JSON.stringify(call.body ?? {}) : undefined,
  });
  return (await handlerOf(key))(req, { params: Promise.resolve(params) });
}

describe("role matrix: the API", () => {
  for (const row of MATRIX.filter((r) => r.api)) {
    const key = row.api as string;
    it(`${rowName(row)} (${key})`, async () => {
      const tokenOf = (who: Caller) =>
        who === "operator" ? operatorToken : who === "other-admin" ? otherAdmin.token : fx.tokens[who];
      for (const who of inOrder(row)) {
        const call = await (row.apiCall ?? API_CALLS[key])?.(fx);
        if (!call) throw new Error(`no API call for ${key}`);
        const before = [await tenantDigest(fx.a.org.id), await watched(call.watch)];
        const res = await send(key, call, tokenOf(who));
        figures.apiCalls++;
        try {
          if (row.allowed.includes(who)) {
            expect(res.status, `${who}: ${(await res.text()).slice(0, 300)}`).toBeLessThan(300);
            continue;
          }
          const refusal = refusalFor(row, who);
          expect(
            [res.status, res.headers.get("content-type")],
            `${who} is refused: ${(await res.clone().text()).slice(0, 300)}`,
          ).toEqual([STATUS_OF[refusal], "application/problem+json"]);
          expect(
            [await tenantDigest(fx.a.org.id), await watched(call.watch)],
            `${who} changed nothing`,
          ).toEqual(before);
          figures.refused++;
        } finally {
          await call.after?.();
        }
      }
    });
  }
});

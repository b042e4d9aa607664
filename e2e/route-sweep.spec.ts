import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { PAGE_ACCESS, routePattern } from "../test/sweep/access";
import { type E2EState, type Role, STATE_FILE } from "./support/env";
import { cookieOf, raw } from "./support/raw-http";

/**
 * The page sweep: every page.tsx under app/, found from the tree, requested from the running server as
 * each person. Anonymous is sent to sign-in; another organization's owner gets HTTP 404 (not a 200 "Page
 * not found"); a made-up id is a 404 for everyone; no one gets a 5xx; operator pages are a 404 to
 * non-operators. The test fails on a page that test/sweep/access.ts does not classify.
 */
function pages(dir = "app"): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "api" && dir === "app" ? [] : pages(p);
    return e.name === "page.tsx" ? [routePattern(p)] : [];
  });
}

async function realIds(): Promise<Record<string, string>> {
  const state = JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as E2EState;
  const db = new pg.Client({ connectionString: state.databaseUrl });
  await db.connect();
  try {
    const one = async (q: string) => ((await db.query(q)).rows[0]?.id as string | undefined) ?? "";
    return {
      "/[org]/instances/[id]": await one(
        "select i.id from instances i join organizations o on o.id = i.org_id where o.slug = 'acme-ai' limit 1",
      ),
      "/[org]/budgets/[id]": await one(
        "select b.id from budgets b join organizations o on o.id = b.org_id where o.slug = 'acme-ai' limit 1",
      ),
      "/admin/fleet/nodes/[id]": await one("select id from nodes order by name limit 1"),
    };
  } finally {
    await db.end();
  }
}

const MADE_UP = "00000000-0000-4000-8000-000000000000";
const fill = (pattern: string, id: string) =>
  pattern.replace("[org]", "acme-ai").replace(/\[(id|token)\]/, id || MADE_UP);

test("every page: anonymous → sign-in, another org's owner → 404, made-up ids → 404, never a 5xx", async ({
  baseURL,
}) => {
  test.setTimeout(180_000);
  const found = pages().sort();
  const unclassified = found.filter((p) => !(p in PAGE_ACCESS));
  const stale = Object.keys(PAGE_ACCESS).filter((p) => !found.includes(p));
  expect({ unclassified, stale }, "classify each page in test/sweep/access.ts").toEqual({
    unclassified: [],
    stale: [],
  });
  expect(found.length).toBeGreaterThan(20);

  const ids = await realIds();
  const cookies = Object.fromEntries(
    (["owner", "viewer", "operator", "other"] as Role[]).map((r) => [r, cookieOf(r)]),
  ) as Record<Role, string>;
  const failures: string[] = [];
  const get = (target: string, role?: Role) =>
    raw(baseURL as string, "GET", target, role ? { cookie: cookies[role] } : {});

  for (const pattern of found) {
    const level = PAGE_ACCESS[pattern];
    const target = fill(pattern, ids[pattern] ?? "");
    if (level === "public") {
      const r = await get(target);
      if (r.status >= 500) failures.push(`${target} anonymous: ${r.status}`);
      continue;
    }
    const anon = await get(target);
    if (![302, 303, 307].includes(anon.status) || !anon.location.includes("/signin")) {
      failures.push(`${target} anonymous: ${anon.status} → ${anon.location || "(no redirect)"}`);
    }
    const strangers: Role[] = level === "operator" ? ["owner", "viewer"] : ["other"];
    for (const who of strangers) {
      const r = await get(target, who);
      if (r.status !== 404) failures.push(`${target} as ${who}: ${r.status}, expected 404`);
    }
    if (level !== "operator" && ids[pattern]) {
      // This organization's id under the stranger's own organization: still nothing there.
      const theirs = target.replace("/acme-ai/", "/globex/");
      const r = await get(theirs, "other");
      if (r.status !== 404) failures.push(`${theirs} as other: ${r.status}, expected 404`);
    }
    const insiders: Role[] = level === "operator" ? ["operator"] : ["owner", "viewer"];
    const hasId = /\[(id|token)\]/.test(pattern);
    for (const who of insiders) {
      const r = await get(target, who);
      if (hasId && !ids[pattern]) {
        if (r.status !== 404) failures.push(`${target} as ${who}: ${r.status}, expected 404`);
      } else if (
        r.status !== 200 &&
        !([302, 303, 307].includes(r.status) && !r.location.includes("/signin"))
      ) {
        // The organization's landing page redirects to its catalog; anything else must render.
        failures.push(`${target} as ${who}: ${r.status} ${r.location}, expected the page`);
      }
      if (hasId) {
        const madeUp = await get(fill(pattern, MADE_UP), who);
        if (madeUp.status !== 404)
          failures.push(`${fill(pattern, MADE_UP)} as ${who}: ${madeUp.status}, expected 404`);
      }
    }
  }
  expect(failures).toEqual([]);
});

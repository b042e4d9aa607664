import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { GET as alertsRoute } from "@/app/api/v1/orgs/[org]/budgets/[id]/alerts/route";
import {
  DELETE as delBudget,
  GET as getBudget,
  PUT as putBudget,
} from "@/app/api/v1/orgs/[org]/budgets/[id]/route";
import { POST as createBudget, GET as listBudgets } from "@/app/api/v1/orgs/[org]/budgets/route";
import { GET as listInstances } from "@/app/api/v1/orgs/[org]/instances/route";
import { GET as projectsRoute } from "@/app/api/v1/orgs/[org]/projects/route";
import { POST as quotaRequests } from "@/app/api/v1/orgs/[org]/quota-requests/route";
import { API_LIMITS } from "@/lib/api/authenticate";
import { getDb } from "@/lib/db/client";
import { budgets } from "@/lib/db/schema";
import { launch } from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec } from "@/lib/provisioning/__tests__/fixtures";
import { createApiToken } from "@/lib/tenancy";
import { assertDocumented } from "./contract";
import { call, expectProblem, postJson, tokenFor } from "./support";

type Page<T> = { items: T[]; next: string | null };
type BudgetBody = { id: string; name: string; amountUsd: number; updatedAt: string };

const budgetBody = (name: string, amountUsd = 100) => ({ name, amountUsd, actionAt100: "notify" });

/** Follow `next` until the end; every page is documented (call checks), no item twice. */
async function collect<T extends { id: string }>(
  route: typeof listBudgets,
  path: string,
  params: { org: string },
  token: string,
  limit: number,
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const q = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    const res = await call(route, `${path}?${q}`, params, { token });
    expect(res.status).toBe(200);
    const page = (await res.json()) as Page<T>;
    expect(page.items.length).toBeLessThanOrEqual(limit);
    ids.push(...page.items.map((i) => i.id));
    cursor = page.next;
    pages++;
  } while (cursor && pages < 50);
  expect(new Set(ids).size).toBe(ids.length);
  return { ids, pages };
}

describe("budgets over the API", () => {
  it("create (idempotent), read with ETag, update with If-Match (412 on a lost update), alerts, delete", async () => {
    const o = await newOrg("budget-api");
    const token = await tokenFor(o.ctx, o.slug);
    const params = { org: o.slug };
    const path = `/orgs/${o.slug}/budgets`;
    const key = { "idempotency-key": `budget-${o.slug}` };

    const first = await postJson(createBudget, path, params, budgetBody("Team"), { token, headers: key });
    expect(first.status).toBe(201);
    const created = (await first.json()) as BudgetBody;
    expect(first.headers.get("location")).toBe(`/api/v1${path}/${created.id}`);
    // The same key and body: the same budget, not a second one (a second "Team" would be a 422 anyway).
    const again = await postJson(createBudget, path, params, budgetBody("Team"), { token, headers: key });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(created);
    // The key with another body is a conflict, and nothing is created.
    const other = await postJson(createBudget, path, params, budgetBody("Other"), { token, headers: key });
    expect((await expectProblem(other, 409)).reason).toBe("idempotency_key_reused");
    expect(await getDb().select().from(budgets).where(eq(budgets.orgId, o.org.id))).toHaveLength(1);

    const one = { org: o.slug, id: created.id };
    const read = await call(getBudget, `${path}/${created.id}`, one, { token });
    const etag = read.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    // Someone else saves first (a later clock, so the row changes) ...
    const later = new Date(Date.parse(created.updatedAt) + 60_000);
    await getDb()
      .update(budgets)
      .set({ amountUsd: "150.00", updatedAt: later })
      .where(eq(budgets.id, created.id));
    // ... so a PUT with the stale ETag is a 412 and writes nothing.
    const stale = await call(putBudget, `${path}/${created.id}`, one, {
      token,
      method: "PUT",
      headers: { "if-match": etag ?? "" },
      body: JSON.stringify(budgetBody("Team", 500)),
    });
    expect((await expectProblem(stale, 412)).reason).toBe("precondition_failed");
    const [row] = await getDb().select().from(budgets).where(eq(budgets.id, created.id));
    expect(row?.amountUsd).toBe("150.00");
    // With the fresh ETag it goes through and answers the new one.
    const fresh = (await call(getBudget, `${path}/${created.id}`, one, { token })).headers.get("etag");
    const saved = await call(putBudget, `${path}/${created.id}`, one, {
      token,
      method: "PUT",
      headers: { "if-match": fresh ?? "" },
      body: JSON.stringify(budgetBody("Team", 500)),
    });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as BudgetBody).amountUsd).toBe(500);
    expect(saved.headers.get("etag")).not.toBe(fresh);

    const alerts = await call(alertsRoute, `${path}/${created.id}/alerts`, one, { token });
    expect(await alerts.json()).toEqual({ items: [], next: null });

    const gone = await call(delBudget, `${path}/${created.id}`, one, {
      token,
      method: "DELETE",
      headers: { "if-match": '"stale"' },
    });
    await expectProblem(gone, 412);
    const deleted = await call(delBudget, `${path}/${created.id}`, one, { token, method: "DELETE" });
    expect(deleted.status).toBe(204);
    await expectProblem(await call(getBudget, `${path}/${created.id}`, one, { token }), 404);
  });

  it("a bad body is a 422 naming fields; a member, a read-only token and another tenant are refused", async () => {
    const o = await newOrg("budget-refuse");
    const stranger = await newOrg("budget-stranger");
    const owner = await tokenFor(o.ctx, o.slug);
    const member = await tokenFor(await o.as("member"), o.slug);
    const readOnly = (await createApiToken(o.ctx, o.slug, { name: "ro", scope: "read" })).secret;
    const theirs = await tokenFor(stranger.ctx, stranger.slug);
    const params = { org: o.slug };
    const path = `/orgs/${o.slug}/budgets`;

    const bad = await postJson(createBudget, path, params, { name: "", amountUsd: -1 }, { token: owner });
    expect(Object.keys((await expectProblem(bad, 422)).errors as object).sort()).toEqual([
      "amountUsd",
      "name",
    ]);
    await expectProblem(await postJson(createBudget, path, params, budgetBody("M"), { token: member }), 403);
    const ro = await postJson(createBudget, path, params, budgetBody("R"), { token: readOnly });
    expect((await expectProblem(ro, 403)).reason).toBe("token_read_only");
    // The read-only token still reads.
    expect((await call(listBudgets, path, params, { token: readOnly })).status).toBe(200);

    const made = (await (
      await postJson(createBudget, path, params, budgetBody("Ours"), { token: owner })
    ).json()) as BudgetBody;
    // Another organization's budget id, under their own organization: nothing there.
    const theirPath = `/orgs/${stranger.slug}/budgets/${made.id}`;
    const their = { org: stranger.slug, id: made.id };
    await expectProblem(await call(getBudget, theirPath, their, { token: theirs }), 404);
    await expectProblem(
      await call(putBudget, theirPath, their, {
        token: theirs,
        method: "PUT",
        body: JSON.stringify(budgetBody("X")),
      }),
      404,
    );
    await expectProblem(await call(delBudget, theirPath, their, { token: theirs, method: "DELETE" }), 404);
    await expectProblem(await call(alertsRoute, `${theirPath}/alerts`, their, { token: theirs }), 404);
    await expectProblem(await call(listBudgets, path, params, { token: theirs }), 404);
    expect(await getDb().select().from(budgets).where(eq(budgets.orgId, o.org.id))).toHaveLength(1);
  });
});

describe("cursor pagination", () => {
  it("walks budgets and instances to the end in pages of `limit`, without repeats; a forged cursor is a 422", async () => {
    const fleet = await newFleet([{ gpus: 8 }]);
    const o = await newOrg("pages");
    const token = await tokenFor(o.ctx, o.slug);
    const params = { org: o.slug };
    for (let i = 0; i < 5; i++) {
      await postJson(createBudget, `/orgs/${o.slug}/budgets`, params, budgetBody(`b${i}`), { token });
      await launch(o.ctx, o.slug, notebookSpec(fleet.region));
    }
    const b = await collect(listBudgets, `/orgs/${o.slug}/budgets`, params, token, 2);
    expect(b).toMatchObject({ pages: 3 });
    expect(b.ids).toHaveLength(5);
    const i = await collect(listInstances, `/orgs/${o.slug}/instances`, params, token, 2);
    expect(i).toMatchObject({ pages: 3 });
    expect(i.ids).toHaveLength(5);
    // One page holding everything has no next.
    const all = await call(listInstances, `/orgs/${o.slug}/instances?limit=5`, params, { token });
    expect(((await all.json()) as Page<unknown>).next).toBeNull();

    for (const q of ["cursor=not-a-cursor", "limit=0", "limit=101", "limit=x"]) {
      const res = await call(projectsRoute, `/orgs/${o.slug}/projects?${q}`, params, { token });
      expect(Object.keys((await expectProblem(res, 422)).errors as object), q).toHaveLength(1);
    }
  });
});

describe("rate limits", () => {
  const saved = { ...API_LIMITS.read };
  afterEach(() => Object.assign(API_LIMITS.read, saved));

  it("every answer carries RateLimit-Policy and RateLimit; past the limit a 429 with Retry-After", async () => {
    const o = await newOrg("ratelimit");
    const token = await tokenFor(o.ctx, o.slug);
    const params = { org: o.slug };
    API_LIMITS.read.max = 3;
    const seen: string[] = [];
    for (let n = 0; n < 3; n++) {
      const res = await call(projectsRoute, `/orgs/${o.slug}/projects`, params, { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"read";q=3;w=60');
      seen.push(res.headers.get("ratelimit")?.replace(/;t=\d+$/, "") ?? "");
    }
    expect(seen).toEqual(['"read";r=2', '"read";r=1', '"read";r=0']);
    const refused = await call(projectsRoute, `/orgs/${o.slug}/projects`, params, { token });
    await expectProblem(refused, 429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit")).toMatch(/^"read";r=0;t=\d+$/);
    // Writes have their own budget: still open.
    const write = await postJson(quotaRequests, `/orgs/${o.slug}/quota-requests`, params, {}, { token });
    expect(write.headers.get("ratelimit-policy")).toMatch(/^"write";q=\d+;w=60$/);
  });
});

describe("the contract check", () => {
  it("fails a response that drifts from the document: a wrong field, an undocumented status or path", async () => {
    const url = "http://forja.test/api/v1/orgs/acme/projects";
    const ok = { items: [], next: null };
    await expect(assertDocumented("GET", url, Response.json(ok))).resolves.toBeUndefined();
    await expect(
      assertDocumented("GET", url, Response.json({ items: [{ id: "not-a-uuid", slug: "x" }], next: null })),
    ).rejects.toThrow(/body does not match the document/);
    await expect(assertDocumented("GET", url, Response.json(ok, { status: 201 }))).rejects.toThrow(
      /status not documented/,
    );
    await expect(assertDocumented("GET", `${url}/nowhere/else`, Response.json(ok))).rejects.toThrow(
      /not in the OpenAPI document/,
    );
  });
});

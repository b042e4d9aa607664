/// <reference types="vite/client" />
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { API_LIMITS } from "@/lib/api/authenticate";
import { openApiDocument } from "@/lib/api/openapi/document";
import { type SweepFixture, sweepFixture, tenantDigest } from "../sweep/fixture";
import { badBodyText, badQuery, badString, contentType } from "./arbitraries";

/**
 * Bad-input fuzz over every operation of the OpenAPI document: generated bad ids, query strings, bodies
 * (invalid JSON, wrong types, huge strings, 1e309, NUL and other control characters, arrays for objects) and
 * content types, sent in-process to the route handler Next.js would call. Never a 5xx; every error is
 * problem+json with its status; an error wrote nothing. What only Next's router does (%-escapes in the path,
 * 405, 431) is covered by the live pass in e2e/bad-input.spec.ts.
 */
const RUNS = Number(process.env.FORJA_FUZZ_RUNS ?? 200);
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const modules = import.meta.glob<Record<string, unknown>>("/app/api/v1/**/route.ts");

type Op = { method: string; path: string; pathParams: string[]; query: string[]; body: string[] | null };
type JsonSchema = { $ref?: string; properties?: Record<string, unknown> };
type Operation = {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
};

function operations(): Op[] {
  const doc = openApiDocument() as unknown as {
    paths: Record<string, Record<string, Operation>>;
    components?: { schemas?: Record<string, JsonSchema> };
  };
  const resolve = (s: JsonSchema): JsonSchema =>
    s.$ref ? resolve(doc.components?.schemas?.[s.$ref.split("/").pop() ?? ""] ?? {}) : s;
  const out: Op[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = op.parameters ?? [];
      const schema = op.requestBody?.content["application/json"]?.schema;
      out.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        query: params.filter((p) => p.in === "query").map((p) => p.name),
        body: schema ? Object.keys(resolve(schema).properties ?? {}) : null,
      });
    }
  }
  return out;
}

async function handlerFor(op: Op): Promise<Handler> {
  const file = `/app/api/v1${op.path.replace(/\{([^}]+)\}/g, "[$1]")}/route.ts`;
  const load = modules[file];
  if (!load) throw new Error(`${op.method} ${op.path} is documented but ${file} does not exist`);
  const h = (await load())[op.method];
  if (typeof h !== "function") throw new Error(`${file} has no ${op.method} though the document lists it`);
  return h as Handler;
}

let fx: SweepFixture;
let instanceId: string;
const ops = operations();
beforeAll(async () => {
  fx = await sweepFixture();
  instanceId = await fx.newInstance();
  // Thousands of calls in a minute from one token are the point here, not the rate limit's 429.
  API_LIMITS.write.max = Number.MAX_SAFE_INTEGER;
  API_LIMITS.read.max = Number.MAX_SAFE_INTEGER;
}, 120_000);

const auth = fc.constantFrom<"owner" | "owner" | "owner" | "member" | "garbage" | "basic" | "none">(
  "owner",
  "owner",
  "owner",
  "member",
  "garbage",
  "basic",
  "none",
);

function caseFor(op: Op) {
  const id = fc.oneof(badString, fc.constant("valid"));
  return fc.record({
    org: fc.oneof(fc.constant("valid"), fc.constant("valid"), badString),
    id,
    query: badQuery(op.query.length ? op.query : ["q"]),
    body: op.body ? badBodyText(op.body) : fc.oneof(fc.constant(""), badBodyText(["x"])),
    contentType,
    auth,
    idempotencyKey: fc.option(fc.string({ maxLength: 250 }), { nil: undefined }),
  });
}
type Case = ReturnType<typeof caseFor> extends fc.Arbitrary<infer C> ? C : never;

function request(op: Op, c: Case): { req: Request; params: Record<string, string> } {
  const params: Record<string, string> = {};
  for (const p of op.pathParams) {
    const v = p === "org" ? c.org : c.id;
    params[p] = v === "valid" ? (p === "org" ? fx.a.slug : instanceId) : v;
  }
  const path = op.path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(params[n] ?? ""));
  const headers = new Headers({ "content-type": c.contentType });
  if (c.auth === "owner") headers.set("authorization", `Bearer ${fx.tokens.owner}`);
  if (c.auth === "member") headers.set("authorization", `Bearer ${fx.tokens.member}`);
  if (c.auth === "garbage") headers.set("authorization", "Bearer forja_not_a_token");
  if (c.auth === "basic") headers.set("authorization", "Basic YTpi");
  if (c.idempotencyKey !== undefined) headers.set("idempotency-key", c.idempotencyKey);
  const hasBody = op.method !== "GET";
  const req = new Request(`http://forja.test/api/v1${path}${c.query ? `?${c.query}` : ""}`, {
    method: op.method,
    headers,
    body: hasBody ? c.body : undefined,
  });
  return { req, params };
}

const tally: Record<string, number> = {};

describe("bad-input fuzz over the OpenAPI document", () => {
  it("covers every documented operation with a route handler", async () => {
    expect(ops.length).toBeGreaterThan(15);
    for (const op of ops) await handlerFor(op);
  });

  for (const op of ops) {
    it(`${op.method} ${op.path}: ${RUNS} bad requests, never a 5xx, errors are problem+json and write nothing`, async () => {
      const handler = await handlerFor(op);
      let baseline = await tenantDigest(fx.a.org.id);
      await fc.assert(
        fc.asyncProperty(caseFor(op), async (c) => {
          const { req, params } = request(op, c);
          const res = await handler(req, { params: Promise.resolve(params) });
          const text = await res.text();
          tally[`${op.method} ${op.path}`] = (tally[`${op.method} ${op.path}`] ?? 0) + 1;
          expect(res.status, text.slice(0, 300)).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.headers.get("content-type"), text.slice(0, 200)).toBe("application/problem+json");
            const problem = JSON.parse(text) as { status: number; title: unknown; fieldErrors?: unknown };
            expect(problem.status).toBe(res.status);
            expect(typeof problem.title).toBe("string");
            // Field errors are named once, under `errors` (docs/api.md).
            expect(problem.fieldErrors).toBeUndefined();
            // Writes are checked after every refused write; reads once for the whole run (below).
            if (op.method !== "GET") {
              expect(await tenantDigest(fx.a.org.id), "a refused request wrote rows").toBe(baseline);
            }
          } else if (op.method !== "GET") {
            baseline = await tenantDigest(fx.a.org.id);
          }
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
      if (op.method === "GET") expect(await tenantDigest(fx.a.org.id), "a read wrote rows").toBe(baseline);
    }, 180_000);
  }

  it("ran the planned number of cases", () => {
    const total = Object.values(tally).reduce((a, b) => a + b, 0);
    console.log(`[fuzz] ${Object.keys(tally).length} operations, ${total} cases (${RUNS} per operation)`);
    expect(total).toBeGreaterThanOrEqual(ops.length * RUNS);
  });
});

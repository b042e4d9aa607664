import { expect } from "vitest";
import type { z } from "zod";
import type { Ctx } from "@/lib/core";
import { createApiToken } from "@/lib/tenancy";
import { assertDocumented } from "./contract";

export const BASE = "http://forja.test/api/v1";

type Handler<P> = (req: Request, context: { params: Promise<P> }) => Promise<Response>;

/**
 * Call a route handler the way Next.js does: a Request and a promise of the path params. Every answer is
 * checked against the OpenAPI document (status, content type, body schema) before the test sees it.
 */
export async function call<P>(
  handler: Handler<P>,
  path: string,
  params: P,
  init: RequestInit & { token?: string } = {},
): Promise<Response> {
  const { token, headers, ...rest } = init;
  const h = new Headers(headers);
  if (token) h.set("authorization", `Bearer ${token}`);
  const req = new Request(`${BASE}${path}`, { ...rest, headers: h });
  const res = await handler(req, { params: Promise.resolve(params) });
  await assertDocumented(req.method, req.url, res);
  return res;
}

export function postJson<P>(
  handler: Handler<P>,
  path: string,
  params: P,
  body: unknown,
  init: RequestInit & { token?: string } = {},
) {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  return call(handler, path, params, {
    ...init,
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export async function tokenFor(ctx: Ctx, orgSlug: string): Promise<string> {
  return (await createApiToken(ctx, orgSlug, { name: "tests" })).secret;
}

/** A problem+json answer with this status; returns its body for further checks. */
export async function expectProblem(res: Response, status: number): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  expect({ status: res.status, body }).toMatchObject({ status, body: { status } });
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(typeof body.title).toBe("string");
  return body;
}

/** The body parses with the documented schema (formats included), so the OpenAPI document tells the truth. */
export async function expectDocumented<S extends z.ZodType>(res: Response, schema: S): Promise<z.output<S>> {
  const body: unknown = await res.json();
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`response does not match its schema: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * Every item of a paged list, following `next` to the end: the test database is shared by every file, so a row a
 * test made need not be on the first page (other files add regions, quotas and instances in parallel).
 */
export async function allPages<T, P>(
  handler: Handler<P>,
  path: string,
  params: P,
  init: RequestInit & { token?: string } = {},
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 1000; i++) {
    const sep = path.includes("?") ? "&" : "?";
    const url = cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path;
    const res = await call(handler, url, params, init);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { items: T[]; next: string | null };
    items.push(...page.items);
    cursor = page.next;
    if (!cursor) return items;
  }
  throw new Error(`${path}: more than 1000 pages`);
}

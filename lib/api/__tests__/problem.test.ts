import { describe, expect, it, vi } from "vitest";
import { readJsonBody } from "@/lib/api/body";
import { errorToProblem } from "@/lib/api/problem";
import {
  ForbiddenError,
  InvalidStateError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from "@/lib/core";

async function problemOf(err: unknown) {
  const res = errorToProblem(err, "/api/v1/x");
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return { res, body: (await res.json()) as Record<string, unknown> };
}

describe("errorToProblem", () => {
  it("maps each domain error to its status, with the request path as instance", async () => {
    const cases: Array<[unknown, number, string]> = [
      [new UnauthorizedError(), 401, "unauthorized"],
      [new ForbiddenError(), 403, "forbidden"],
      [new NotFoundError("Instance"), 404, "not_found"],
      [new InvalidStateError("nope", { from: "terminated" }), 409, "invalid_state"],
      [ValidationError.field("name", "Enter a name"), 422, "validation"],
    ];
    for (const [err, status, code] of cases) {
      const { body } = await problemOf(err);
      expect(body).toMatchObject({
        status,
        type: `https://forja.dev/problems/${code}`,
        instance: "/api/v1/x",
      });
    }
  });

  it("422 carries errors per field; 409 its details; 401 names the Bearer scheme", async () => {
    expect((await problemOf(ValidationError.field("name", "Enter a name"))).body.errors).toEqual({
      name: ["Enter a name"],
    });
    expect((await problemOf(new InvalidStateError("x", { from: "terminated" }))).body.from).toBe(
      "terminated",
    );
    expect((await problemOf(new UnauthorizedError())).res.headers.get("www-authenticate")).toBe(
      'Bearer realm="forja"',
    );
  });

  it("429 sends Retry-After", async () => {
    const { res, body } = await problemOf(new RateLimitedError(42));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("42");
    expect(body.retryAfterSeconds).toBe(42);
  });

  it("an unexpected error is a generic 500 with a request id, never its message", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const { res, body } = await problemOf(new Error("relation secret_table does not exist"));
    expect(res.status).toBe(500);
    expect(JSON.stringify(body)).not.toContain("secret_table");
    expect(body.detail).toContain(String(body.requestId));
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });
});

describe("readJsonBody", () => {
  const req = (body: string) => new Request("http://x/", { method: "POST", body });
  it("parses JSON; empty or malformed is a 400, over 64 KiB a 413", async () => {
    await expect(readJsonBody(req('{"a":1}'))).resolves.toEqual({ a: 1 });
    for (const [body, status] of [
      ["", 400],
      ["{", 400],
      [`"${"x".repeat(70_000)}"`, 413],
    ] as const) {
      const err = await readJsonBody(req(body)).catch((e: unknown) => e);
      expect((await problemOf(err)).res.status).toBe(status);
    }
  });
});

import { randomUUID } from "node:crypto";
import { isDomainError, RateLimitedError, UnauthorizedError, ValidationError } from "@/lib/core";

/** RFC 9457 problem details. */
export type Problem = {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  [extension: string]: unknown;
};

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  405: "Method Not Allowed",
  413: "Content Too Large",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
};

export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}

/**
 * The one API error adapter: any error → problem+json, with the error's `reason` as an extension member.
 * Internal errors are logged with a request id and never leak details.
 */
export function errorToProblem(err: unknown, instance?: string): Response {
  if (isDomainError(err)) {
    const headers: Record<string, string> = {};
    if (err instanceof RateLimitedError) headers["retry-after"] = String(err.retryAfterSeconds);
    // RFC 9110: a 401 names the scheme that would work.
    if (err instanceof UnauthorizedError) headers["www-authenticate"] = 'Bearer realm="forja"';
    // A ValidationError carries its field errors in `details` too; the API names them once, as `errors`.
    const { fieldErrors: _dup, ...rest } = err.details;
    const details = err instanceof ValidationError ? rest : err.details;
    const body: Problem = {
      type: `https://forja.dev/problems/${err.code}`,
      title: TITLES[err.status] ?? err.name,
      status: err.status,
      detail: err.message,
      instance,
      ...details,
      // The stable machine-readable reason (RFC 9457 extension member): what a client branches on.
      reason: err.reason,
    };
    if (err instanceof ValidationError) body.errors = err.fieldErrors;
    return problemResponse(body, headers);
  }
  const requestId = randomUUID();
  console.error(`[api] request ${requestId} failed`, err);
  return problemResponse({
    type: "about:blank",
    title: "Internal Server Error",
    status: 500,
    detail: `Something went wrong. Request id: ${requestId}`,
    instance,
    requestId,
  });
}

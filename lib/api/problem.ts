import { randomUUID } from "node:crypto";
import { IntlMessageFormat } from "intl-messageformat";
import { defaultLocale, type Locale, negotiateLocale } from "@/i18n/config";
import { isDomainError, RateLimitedError, UnauthorizedError, ValidationError } from "@/lib/core";
import { messagesFor } from "@/messages";

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
  412: "Precondition Failed",
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

/** A catalog entry by its dotted key ("LaunchFieldErrors.nameRequired"), or null. */
function catalogText(locale: Locale, key: string): string | null {
  let node: unknown = messagesFor(locale);
  for (const part of key.split(".")) {
    if (!node || typeof node !== "object") return null;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : null;
}

/**
 * Field errors in the caller's language: each declared field message (lib/core/messages.ts, the registry the
 * forms use) rendered from messages/<locale> by its key and parameters; undeclared ones stay as raised. English
 * is the declared text itself (what the schemas say), so an English caller gets exactly `fieldErrors`.
 */
export function localizedFieldErrors(err: ValidationError, locale: Locale): Record<string, string[]> {
  if (locale === defaultLocale) return err.fieldErrors as Record<string, string[]>;
  return Object.fromEntries(
    Object.entries(err.fieldMessages).map(([field, list]) => [
      field,
      list.map((m) => {
        const src = m.key ? catalogText(locale, m.key) : null;
        return src ? String(new IntlMessageFormat(src, locale).format(m.params)) : m.text;
      }),
    ]),
  );
}

/**
 * The one API error adapter: any error → problem+json, with the error's `reason` as an extension member.
 * Internal errors are logged with a request id and never leak details. `acceptLanguage` (the request's header)
 * picks the language of field messages; the response names it in Content-Language.
 */
export function errorToProblem(err: unknown, instance?: string, acceptLanguage?: string | null): Response {
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
    if (err instanceof ValidationError) {
      const locale = negotiateLocale(acceptLanguage);
      body.errors = localizedFieldErrors(err, locale);
      headers["content-language"] = locale;
    }
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

import { type FieldErrors, isDomainError, ValidationError } from "./errors";
import type { MessageParams } from "./messages";

// No node: imports: client components import lib/core (schemas, field messages) too.

/** What a server action returns to a form bound with useActionState. */
export type ActionResult<T = undefined> =
  | { ok: true; data?: T; message?: string }
  | {
      ok: false;
      message: string;
      fieldErrors?: FieldErrors;
      requestId?: string;
      /** A domain refusal's stable reason and its plain parameters (a form can offer the next step). */
      reason?: string;
      params?: MessageParams;
    };

/** A message catalog in the reader's language (next-intl's translator has this shape). */
export type Translator = {
  (key: string, params?: MessageParams): string;
  has(key: string): boolean;
};

/**
 * The one form-error adapter: any thrown error → a form result in the reader's language. The form-level
 * message is looked up by reason, then by code, first in the area's namespace (`<area>.<reason>`, so an area can
 * word a refusal for its page) and then in `Errors`; field messages by their keys. Anything that is not a
 * domain error is logged with a request id and shown as a generic message (never a stack or SQL text).
 */
export function toFormResult(
  err: unknown,
  t: Translator,
  opts: { label: string; area?: string },
): ActionResult<never> {
  if (!isDomainError(err)) {
    const requestId = globalThis.crypto.randomUUID();
    console.error(`[${opts.label}] request ${requestId} failed`, err);
    return { ok: false, message: t("Errors.internal", { requestId }), requestId };
  }
  const spaces = opts.area ? [opts.area, "Errors"] : ["Errors"];
  // The error's own reason wins wherever it is worded; only then the page's (or the general) words for its
  // class: a page's "forbidden" sentence must not hide "your organization is suspended".
  const key = [...spaces.map((ns) => `${ns}.${err.reason}`), ...spaces.map((ns) => `${ns}.${err.code}`)].find(
    (k) => t.has(k),
  );
  const message = key ? t(key, err.params) : err.message;
  if (!(err instanceof ValidationError))
    return { ok: false, message, reason: err.reason, params: err.params };
  const fieldErrors = Object.fromEntries(
    Object.entries(err.fieldMessages).map(([field, list]) => [
      field,
      list.map((m) => (m.key && t.has(m.key) ? t(m.key, m.params) : m.text)),
    ]),
  );
  return { ok: false, message, fieldErrors };
}

/** The English catalog-free fallback (scripts, tests): the domain's own messages. */
export function toActionError(err: unknown, context: string): ActionResult<never> {
  if (err instanceof ValidationError)
    return { ok: false, message: err.message, fieldErrors: err.fieldErrors };
  if (isDomainError(err)) return { ok: false, message: err.message };
  const requestId = globalThis.crypto.randomUUID();
  console.error(`[${context}] request ${requestId} failed`, err);
  return { ok: false, message: `Something went wrong. Request id: ${requestId}`, requestId };
}

import { randomUUID } from "node:crypto";
import { type FieldErrors, isDomainError, ValidationError } from "./errors";

/** What a server action returns to a form bound with useActionState. */
export type ActionResult<T = undefined> =
  | { ok: true; data?: T; message?: string }
  | { ok: false; message: string; fieldErrors?: FieldErrors; requestId?: string };

/**
 * Map any thrown error to a form result. Domain errors carry their own safe message; anything else is logged
 * with a request id and shown as a generic message (never a stack or SQL text).
 */
export function toActionError(err: unknown, context: string): ActionResult<never> {
  if (err instanceof ValidationError)
    return { ok: false, message: err.message, fieldErrors: err.fieldErrors };
  if (isDomainError(err)) return { ok: false, message: err.message };
  const requestId = randomUUID();
  console.error(`[${context}] request ${requestId} failed`, err);
  return { ok: false, message: `Something went wrong. Request id: ${requestId}`, requestId };
}

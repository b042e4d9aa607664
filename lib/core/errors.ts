import { type FieldMessage, fieldMessageOf, type MessageParams } from "./messages";

/**
 * Typed domain errors, mapped once at each edge (forms: toFormResult, API: errorToProblem). Each carries a
 * stable `reason` code and the parameters its message needs, so an edge renders the reader's language from the
 * catalog (`Errors.<reason>`); the English `message` is the API's problem detail and the log line.
 */
export type FieldErrors = Record<string, string[]>;

export abstract class DomainError extends Error {
  abstract readonly code: string;
  abstract readonly status: number;
  /** Extra machine-readable members for problem+json (a domain may name its `reason` here). */
  readonly details: Record<string, unknown>;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.details = details;
  }
  /** Stable machine-readable reason: the one the domain named, else the error's code. */
  get reason(): string {
    return typeof this.details.reason === "string" ? this.details.reason : this.code;
  }
  /** The parameters of the reader's message: the error's plain (string or number) details. */
  get params(): MessageParams {
    const out: MessageParams = {};
    for (const [k, v] of Object.entries(this.details)) {
      if (typeof v === "string" || typeof v === "number") out[k] = v;
    }
    return out;
  }
}

export class NotFoundError extends DomainError {
  readonly code = "not_found";
  readonly status = 404;
  override name = "NotFoundError";
  constructor(what = "Resource") {
    super(`${what} not found`);
  }
}

export class UnauthorizedError extends DomainError {
  readonly code = "unauthorized";
  readonly status = 401;
  override name = "UnauthorizedError";
  constructor(message = "Sign in to continue", details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

export class ForbiddenError extends DomainError {
  readonly code = "forbidden";
  readonly status = 403;
  override name = "ForbiddenError";
  constructor(message = "You do not have permission to do this", details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

export class ConflictError extends DomainError {
  readonly code = "conflict";
  readonly status = 409;
  override name = "ConflictError";
}

export class InvalidStateError extends DomainError {
  readonly code = "invalid_state";
  readonly status = 409;
  override name = "InvalidStateError";
}

export class QuotaExceededError extends DomainError {
  readonly code: string = "quota_exceeded";
  readonly status = 422;
  override name = "QuotaExceededError";
}

/**
 * A budget with a hard cap is used up: launches and starts are refused. A kind of quota refusal (same status,
 * callers that catch quota refusals catch it), with its own code and message: budget name, amount, spend.
 */
export class BudgetBlockedError extends QuotaExceededError {
  override readonly code: string = "budget_blocked";
  override name = "BudgetBlockedError";
  constructor(
    message: string,
    details: { budgetId: string; budgetName: string; period: string; actualUsd: number; amountUsd: number },
  ) {
    super(message, details);
  }
}

export class RateLimitedError extends DomainError {
  readonly code = "rate_limited";
  readonly status = 429;
  override name = "RateLimitedError";
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many attempts. Try again in ${retryAfterSeconds} seconds.`, { retryAfterSeconds });
  }
}

export class ValidationError extends DomainError {
  readonly code = "validation";
  readonly status = 422;
  override name = "ValidationError";
  /** Per field: the message keys and parameters the domain raised (the English texts are `fieldErrors`). */
  readonly fieldMessages: Record<string, FieldMessage[]>;
  constructor(
    readonly fieldErrors: FieldErrors,
    message = "Some fields need attention",
    fieldMessages?: Record<string, FieldMessage[]>,
  ) {
    super(message, { fieldErrors });
    this.fieldMessages =
      fieldMessages ??
      Object.fromEntries(
        Object.entries(fieldErrors).map(([field, list]) => [field, list.map(fieldMessageOf)]),
      );
  }
  /** One field's message: a declared one (see fieldMessages) carries its key; `params` fill its template. */
  static field(field: string, message: string | FieldMessage): ValidationError {
    if (typeof message === "string") return new ValidationError({ [field]: [message] }, message);
    return new ValidationError({ [field]: [message.text] }, message.text, { [field]: [message] });
  }
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}

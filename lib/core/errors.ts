/** Typed domain errors, mapped once at the edge (forms: ActionResult, API: RFC 9457 problem+json). */
export type FieldErrors = Record<string, string[]>;

export abstract class DomainError extends Error {
  abstract readonly code: string;
  abstract readonly status: number;
  /** Extra machine-readable members for problem+json. */
  readonly details: Record<string, unknown>;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.details = details;
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
  constructor(message = "Sign in to continue") {
    super(message);
  }
}

export class ForbiddenError extends DomainError {
  readonly code = "forbidden";
  readonly status = 403;
  override name = "ForbiddenError";
  constructor(message = "You do not have permission to do this") {
    super(message);
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
  readonly code = "quota_exceeded";
  readonly status = 422;
  override name = "QuotaExceededError";
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
  constructor(
    readonly fieldErrors: FieldErrors,
    message = "Some fields need attention",
  ) {
    super(message, { fieldErrors });
  }
  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] }, message);
  }
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}

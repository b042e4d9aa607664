import { DomainError } from "@/lib/core";

/** The request itself is unreadable (malformed JSON): 400, before any schema is involved. */
export class BadRequestError extends DomainError {
  readonly code = "bad_request";
  readonly status = 400;
  override name = "BadRequestError";
}

export class PayloadTooLargeError extends DomainError {
  readonly code = "payload_too_large";
  readonly status = 413;
  override name = "PayloadTooLargeError";
}

/** An `If-Match` that no longer matches the resource: someone changed it since it was read (a lost update). */
export class PreconditionFailedError extends DomainError {
  readonly code = "precondition_failed";
  readonly status = 412;
  override name = "PreconditionFailedError";
}

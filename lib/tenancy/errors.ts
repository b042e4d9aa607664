import { ConflictError, ForbiddenError, InvalidStateError } from "@/lib/core";

/**
 * Domain errors with a machine-readable reason in details, so the UI can show the message in the user's
 * language (the English message stays the API's problem+json detail).
 */
export function forbidden(message: string, reason: string): ForbiddenError {
  const err = new ForbiddenError(message);
  err.details.reason = reason;
  return err;
}

export function conflict(message: string, reason: string): ConflictError {
  return new ConflictError(message, { reason });
}

export function invalidState(message: string, reason: string): InvalidStateError {
  return new InvalidStateError(message, { reason });
}

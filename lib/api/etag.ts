import { createHash } from "node:crypto";
import { PreconditionFailedError } from "./errors";

/**
 * Entity tags for updatable resources: a hash of the resource's JSON as the API returns it, so GET's ETag and
 * the precondition checked inside the update's transaction (on the locked row) are computed the same way.
 */
export function etagOf(resource: unknown): string {
  return `"${createHash("sha256").update(JSON.stringify(resource)).digest("base64url").slice(0, 27)}"`;
}

/**
 * The check an update runs on the row it has locked: with `If-Match`, the row must still be what the client
 * read (else 412, nothing written); `*` matches anything. Without the header the update goes through (last
 * write wins), as HTTP allows; clients that care send it. `current` is null where the resource does not exist
 * yet (a scope without its policy): any If-Match fails then, `*` included (RFC 9110 §13.1.1).
 */
export function ifMatchCheck<T>(req: Request, view: (row: T) => unknown): (current: T | null) => void {
  const header = req.headers.get("if-match");
  return (current) => {
    if (header === null) return;
    if (current === null) throw lostUpdate();
    const tags = header.split(",").map((t) => t.trim().replace(/^W\//, ""));
    if (tags.includes("*") || tags.includes(etagOf(view(current)))) return;
    throw lostUpdate();
  };
}

function lostUpdate() {
  return new PreconditionFailedError(
    "The resource changed since you read it (If-Match does not match its ETag); read it again and retry",
    { reason: "precondition_failed" },
  );
}

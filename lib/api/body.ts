import { ValidationError } from "@/lib/core";
import { BadRequestError, PayloadTooLargeError } from "./errors";

/** Launch specs and the like are small; anything bigger is a mistake or abuse, refused before parsing. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

/**
 * The request's JSON body. Malformed JSON is a 400 problem; well-formed JSON of the wrong shape is left to the
 * library's zod schema (a 422 with per-field errors). The content type is not checked, so `curl -d` works.
 */
export async function readJsonBody(req: Request): Promise<unknown> {
  const text = await req.text();
  if (Buffer.byteLength(text) > MAX_JSON_BODY_BYTES) {
    throw new PayloadTooLargeError(`The request body is larger than ${MAX_JSON_BODY_BYTES} bytes`);
  }
  if (!text.trim()) throw new BadRequestError("The request body is empty; send a JSON object");
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequestError("The request body is not valid JSON");
  }
}

/**
 * Put the `Idempotency-Key` header into a launch body as the library's idempotencyKey. Sending a different
 * key in the body as well is ambiguous, so it is refused rather than one silently winning.
 */
export function withIdempotencyKey(body: unknown, header: string | null): unknown {
  if (header === null) return body;
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const given = (body as Record<string, unknown>).idempotencyKey;
  if (given != null && given !== header) {
    throw ValidationError.field(
      "idempotencyKey",
      "The Idempotency-Key header and the body's idempotencyKey differ; send one of them",
    );
  }
  return { ...body, idempotencyKey: header };
}

/** A body that may be left out (an optional reason): empty → `{}`, otherwise as readJsonBody. */
export async function readOptionalJsonBody(req: Request): Promise<unknown> {
  const text = await req.clone().text();
  return text.trim() ? readJsonBody(req) : {};
}

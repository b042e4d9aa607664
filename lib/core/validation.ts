import type { z } from "zod";
import { type FieldErrors, ValidationError } from "./errors";
import { inWords } from "./zod-words";

export const NUL_MESSAGE = "Must not contain NUL (\\u0000) characters";

/**
 * Paths of strings (values or object keys) that contain a NUL character. PostgreSQL cannot store NUL in text,
 * so such input would otherwise fail deep in a query as a 500; it is bad input and is refused up front.
 * Bounded in depth and breadth so a hostile body cannot make this walk expensive.
 */
export function nulPaths(input: unknown, path: string[] = [], out: string[] = [], depth = 0): string[] {
  if (out.length >= 20 || depth > 32) return out;
  const here = () => (path.length ? path.join(".") : "_form");
  if (typeof input === "string") {
    if (input.includes("\u0000")) out.push(here());
  } else if (Array.isArray(input)) {
    input.slice(0, 10_000).forEach((v, i) => {
      nulPaths(v, [...path, String(i)], out, depth + 1);
    });
  } else if (
    input instanceof URLSearchParams ||
    (typeof FormData !== "undefined" && input instanceof FormData)
  ) {
    for (const [k, v] of input.entries()) {
      if (k.includes("\u0000") || (typeof v === "string" && v.includes("\u0000")))
        out.push(k.replace(/\0/g, ""));
    }
  } else if (input && typeof input === "object" && !(input instanceof Date)) {
    for (const [k, v] of Object.entries(input).slice(0, 10_000)) {
      if (k.includes("\u0000")) out.push([...path, k.replace(/\0/g, "")].join("."));
      else nulPaths(v, [...path, k], out, depth + 1);
    }
  }
  return out;
}

/** Throw a ValidationError naming every field that holds a NUL character. */
export function refuseNul(input: unknown): void {
  const paths = nulPaths(input);
  if (paths.length === 0) return;
  const fieldErrors: FieldErrors = {};
  for (const p of paths) fieldErrors[p] = [NUL_MESSAGE];
  throw new ValidationError(fieldErrors);
}

/**
 * Parse input with a zod schema or throw a ValidationError carrying per-field messages. Messages the schema
 * does not set come from `inWords` (what is expected, in words), never zod's programmer-facing defaults.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  refuseNul(input);
  const result = schema.safeParse(input, { error: inWords });
  if (result.success) return result.data;
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_form";
    const list = fieldErrors[key] ?? [];
    list.push(issue.message);
    fieldErrors[key] = list;
  }
  throw new ValidationError(fieldErrors);
}

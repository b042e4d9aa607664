import { z } from "zod";
import { ValidationError } from "@/lib/core";
import { API_FIELD_MESSAGES } from "./field-messages";

/**
 * Cursor pagination for every list of the API: `?limit=` (1–100, default 50) and `?cursor=` (opaque: the
 * `next` of the previous page). A cursor names the last item seen, so a page does not repeat or skip rows when
 * earlier ones are added; it also remembers the position, for a list whose last item has since gone.
 */
export const API_PAGE_LIMIT = { default: 50, max: 100 } as const;

export const pageQuerySchema = z.object({
  limit: z.coerce
    .number({ error: "Must be a whole number from 1 to 100" })
    .int("Must be a whole number from 1 to 100")
    .min(1, "Must be a whole number from 1 to 100")
    .max(API_PAGE_LIMIT.max, "Must be a whole number from 1 to 100")
    .default(API_PAGE_LIMIT.default)
    .meta({ description: "Items per page (1–100)", example: 50 }),
  cursor: z
    .string()
    .max(500)
    .optional()
    .meta({ description: "The `next` of the previous page; omit for the first page" }),
});

export type PageQuery = { limit: number; cursor?: string };
type Cursor = { k?: string; o?: number };

const badCursor = () => ValidationError.field("cursor", API_FIELD_MESSAGES.cursorForeign);

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

export function decodeCursor(s: string | undefined): Cursor {
  if (!s) return {};
  try {
    const c = JSON.parse(Buffer.from(s, "base64url").toString("utf8")) as unknown;
    if (!c || typeof c !== "object") throw badCursor();
    const { k, o } = c as Record<string, unknown>;
    if ((k !== undefined && typeof k !== "string") || (o !== undefined && !Number.isInteger(o)))
      throw badCursor();
    return { k: k as string | undefined, o: o as number | undefined };
  } catch {
    throw badCursor();
  }
}

/** `limit` and `cursor` from the query string, validated (a bad limit or a forged cursor is a 422). */
export function pageQuery(q: URLSearchParams): PageQuery {
  const parsed = pageQuerySchema.safeParse({
    limit: q.get("limit") ?? undefined,
    cursor: q.get("cursor") ?? undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw ValidationError.field(String(issue?.path[0] ?? "limit"), issue?.message ?? "Invalid");
  }
  decodeCursor(parsed.data.cursor);
  return parsed.data;
}

export type CursorPage<T> = { items: T[]; next: string | null };

/** One page of a list the library returns whole (projects, budgets, members …), in the library's order. */
export function pageOf<T>(all: readonly T[], q: URLSearchParams, key: (item: T) => string): CursorPage<T> {
  const { limit, cursor } = pageQuery(q);
  const c = decodeCursor(cursor);
  let start = 0;
  if (c.k !== undefined) {
    const at = all.findIndex((item) => key(item) === c.k);
    start = at >= 0 ? at + 1 : Math.max(0, c.o ?? 0);
  }
  const items = all.slice(start, start + limit);
  const last = items.at(-1);
  const more = start + limit < all.length;
  return { items, next: more && last ? encodeCursor({ k: key(last), o: start + limit }) : null };
}

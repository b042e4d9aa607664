import { z } from "zod";

/** One page of a list plus what a pager needs. */
export type Paged<T> = { rows: T[]; total: number; page: number; pageSize: number; pageCount: number };

/**
 * URL filters are typed by people and shared as links: a value that does not parse is treated as absent
 * (page 1, no filter) rather than an error page.
 */
export const pageParam = z.coerce.number().int().min(1).max(100_000).catch(1);
export const textFilter = z
  .string()
  .trim()
  .max(100)
  .transform((s) => s || undefined)
  .optional()
  .catch(undefined);

export function paged<T>(rows: T[], total: number, page: number, pageSize: number): Paged<T> {
  return { rows, total, page, pageSize, pageCount: Math.max(1, Math.ceil(total / pageSize)) };
}

/** Escape LIKE wildcards so a search for "50%" matches the text, not everything. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

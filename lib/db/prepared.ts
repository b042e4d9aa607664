import "server-only";
import { createHash } from "node:crypto";
import { type Column, getTableColumns, getTableName, type SQL, type Table } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Executor } from "./client";

const dialect = new PgDialect();

/** Names already computed: the hot statements are few texts run often, and hashing one cost ~0.1 ms a call. */
const names = new Map<string, string>();
const MAX_NAMES = 4096;

/** The prepared-statement name of a statement text: the same text always gets the same name. */
function preparedName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `forja_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
    if (names.size >= MAX_NAMES) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * `exec.execute(query)` as a named prepared statement: each pooled connection parses the text once and,
 * after its first executions, PostgreSQL may keep one generic plan for it instead of planning every call.
 * For the few hot statements whose planning is a large part of their cost (launch's facts and quota reads,
 * where planning took longer than running). The name is a digest of the text, so statements that differ by
 * their SQL (not their parameters) are prepared apart and a name never meets a different text.
 */
export async function executePrepared<T extends Record<string, unknown>>(
  exec: Executor,
  query: SQL,
): Promise<{ rows: T[] }> {
  const q = dialect.sqlToQuery(query);
  const prepared = exec._.session.prepareQuery<{
    execute: { rows: T[] };
    all: unknown;
    values: unknown;
  }>(q, undefined, preparedName(q.sql), false);
  return prepared.execute();
}

/**
 * `values` (a drizzle insert object of `table`) as one JSON object keyed by column name, for an insert that
 * takes the whole row as a single parameter (`jsonb_populate_record`): building a statement with one
 * parameter per column through the query builder cost more than running it (issue 13, launch). Absent keys
 * are left out, so their column defaults apply; Dates become ISO strings; jsonb values stay JSON.
 */
export function jsonRecordOf<T extends Table>(
  table: T,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const columns = getTableColumns(table) as Record<string, Column>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const column = columns[key];
    if (!column) throw new Error(`${key} is not a column of ${getTableName(table)}`);
    if (value === undefined) continue;
    out[column.name] = value instanceof Date ? value.toISOString() : value;
  }
  return out;
}

/** A raw row of `table` (as `returning *` gives it, column names) decoded the way drizzle's own reads are. */
export function rowFromDriver<T extends Table>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table) as Record<string, Column>)) {
    const value = raw[column.name];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T["$inferSelect"];
}

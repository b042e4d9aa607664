import "server-only";
import { createHash } from "node:crypto";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Executor } from "./client";

const dialect = new PgDialect();

/** The prepared-statement name of a statement text: the same text always gets the same name. */
export function preparedName(text: string): string {
  return `forja_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
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

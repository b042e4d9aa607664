import { type SQL, sql } from "drizzle-orm";

/** One array parameter (drizzle would expand a JS array into a parameter list), typed in SQL by `cast`. */
export function arrayParam(values: readonly (string | number)[], cast: string): SQL {
  return sql`${sql.param(values)}::${sql.raw(cast)}`;
}

/** A Postgres interval from seconds, as a parameter. */
export function seconds(n: number): SQL {
  return sql`make_interval(secs => ${n})`;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Epoch milliseconds as a JS number: the driver returns timestamps as text and numerics as strings. */
export const epochMs = (expr: SQL) => sql`(extract(epoch from ${expr}) * 1000)::float8`;

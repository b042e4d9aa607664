import { type SQL, sql } from "drizzle-orm";

/** A uuid[] parameter (drizzle would otherwise expand a JS array into a list of parameters). */
export function uuidArray(ids: readonly string[]): SQL {
  return sql`${`{${ids.join(",")}}`}::uuid[]`;
}

const NEEDS_ESCAPE = /["\\]/;

/** An array literal as a text parameter (cast it: `${pgArray(xs)}::int[]`); a null element is SQL null. */
export function pgArray(values: readonly (string | null)[]): SQL {
  // Most elements (ids, states, times) need no escaping: test before replacing (a tick sends ~80,000).
  const quoted = values.map((v) =>
    v === null ? "NULL" : NEEDS_ESCAPE.test(v) ? `"${v.replace(/["\\]/g, "\\$&")}"` : `"${v}"`,
  );
  return sql`${`{${quoted.join(",")}}`}`;
}

export function textArray(values: readonly (string | null)[]): SQL {
  return sql`${pgArray(values)}::text[]`;
}

/** Two-key advisory lock for the rest of the transaction; keys are hashed namespaced strings. */
export function advisoryXactLock(namespace: string, key: string): SQL {
  return sql`select pg_advisory_xact_lock(hashtext(${namespace}), hashtext(${key}))`;
}

import pg from "pg";

/**
 * Where a piece of code spends its database time: while `record` runs, every query sent through `pg` (the
 * pool drizzle uses) is timed from send to result and filed under a label (`write <table>`, `read <table>`,
 * `tx`). Bench instrumentation only: it wraps `pg.Client.prototype.query` for the duration and puts it back.
 * Queries on one connection run one after another, also when they were sent together (the pool pipelines):
 * a query's time starts when it was sent or when the one before it on its connection finished, whichever is
 * later, so the times add up to the time spent waiting on the database; the rest of the wall time is
 * JavaScript (part of which may have run while the database worked).
 */
export type SqlTimes = {
  totalMs: number;
  sqlMs: number;
  byLabel: Map<string, { ms: number; calls: number }>;
};

export function sqlLabel(text: string): string {
  const t = text.replace(/\s+/g, " ").trim().toLowerCase();
  if (/^(begin|commit|rollback|savepoint|release)\b/.test(t) || t.includes("pg_advisory_xact_lock"))
    return "tx";
  // A CTE that writes is filed under the table it writes (e.g. the events insert with its webhook fan-out).
  const write = /^(?:with .*?\(\s*)?(insert into|update|delete from) "?(\w+)"?/.exec(t);
  if (write) return `write ${write[2]}`;
  const from = /\bfrom "?(\w+)"?/.exec(t);
  return `read ${from ? from[1] : "?"}`;
}

type Query = (...args: unknown[]) => unknown;

export async function record<T>(fn: () => Promise<T>): Promise<{ value: T; times: SqlTimes }> {
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  const byLabel = new Map<string, { ms: number; calls: number }>();
  let sqlMs = 0;
  // Per connection, when its latest query finished (a promise: it may still be running).
  const finishedOf = new WeakMap<object, Promise<number>>();
  proto.query = function (this: object, ...args: unknown[]) {
    const result = original.apply(this, args);
    // Only promise-style calls (drizzle's); callback-style ones pass through untimed.
    if (!(result instanceof Promise)) return result;
    const first = args[0] as string | { text?: string };
    const label = sqlLabel(typeof first === "string" ? first : (first.text ?? ""));
    const sentAt = performance.now();
    const ahead = finishedOf.get(this) ?? Promise.resolve(0);
    const finished = result.then(
      () => performance.now(),
      () => performance.now(),
    );
    finishedOf.set(this, finished);
    return Promise.all([ahead, finished])
      .then(([aheadEnd, end]) => {
        const ms = end - Math.max(sentAt, aheadEnd);
        sqlMs += ms;
        const e = byLabel.get(label) ?? { ms: 0, calls: 0 };
        e.ms += ms;
        e.calls += 1;
        byLabel.set(label, e);
      })
      .then(() => result);
  };
  const t0 = performance.now();
  try {
    const value = await fn();
    return { value, times: { totalMs: performance.now() - t0, sqlMs, byLabel } };
  } finally {
    proto.query = original;
  }
}

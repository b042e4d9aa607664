import type { Writable } from "node:stream";
import { type SQL, sql } from "drizzle-orm";
import { drizzle, type NodePgDatabase, NodePgSession, NodePgTransaction } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema";

export type Db = NodePgDatabase<typeof schema>;
/** A drizzle transaction handle; functions that write accept one so callers can compose them. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything that can run a query: the pool-backed db or an open transaction. */
export type Executor = Db | Tx;

type Holder = { pool?: pg.Pool; db?: Db };
// One pool per process, kept on globalThis so Next.js dev reloads do not open a new pool per module load.
const holder = globalThis as typeof globalThis & { __forjaDb?: Holder };
holder.__forjaDb ??= {};

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error(
      "DATABASE_URL is not set. Start Forja with `npm start` (it starts the embedded PostgreSQL), or set DATABASE_URL.",
    );
  }
  return url;
}

export function getPool(): pg.Pool {
  const h = holder.__forjaDb as Holder;
  if (!h.pool) {
    h.pool = new pg.Pool({
      connectionString: databaseUrl(),
      max: Number(process.env.DATABASE_POOL_MAX ?? 10),
      // node-postgres writes a query as soon as it is asked instead of after the previous one's answer
      // (https://node-postgres.com/features/pipelining); code that awaits each query, as everything here
      // does, runs exactly as before. readCommittedTxFrom relies on it to send BEGIN with the first statement.
      pipeline: true,
    });
    h.pool.on("error", (err) => console.error("[db] idle client error", err));
  }
  return h.pool;
}

export function getDb(): Db {
  const h = holder.__forjaDb as Holder;
  if (!h.db) h.db = drizzle(getPool(), { schema });
  return h.db;
}

/** Lazily-connected db: importing this module never connects; the first query does. */
export const db: Db = new Proxy({} as Db, {
  get(_target, prop) {
    const real = getDb() as unknown as Record<string | symbol, unknown>;
    const value = real[prop];
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(real) : value;
  },
});

export async function closeDb(): Promise<void> {
  const h = holder.__forjaDb as Holder;
  const pool = h.pool;
  h.pool = undefined;
  h.db = undefined;
  if (!pool) return;
  // pool.end() resolves once its clients are told to end, not once they have: wait for each to go (a
  // database stopped right after would otherwise cut them off, and each would log an idle-client error).
  let left = pool.totalCount;
  const gone = new Promise<void>((resolve) => {
    if (left === 0) resolve();
    pool.on("remove", () => {
      left--;
      if (left <= 0) resolve();
    });
  });
  await pool.end();
  await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
}

/** Run fn in the given transaction, or open a new one. */
export async function withTx<T>(exec: Executor | undefined, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (exec && isTx(exec)) return fn(exec);
  return getDb().transaction(fn);
}

/**
 * What a read should run on: the caller's transaction when it is inside one, else the pool. Every query
 * function takes `ctx` and reads through this, so a caller's transaction sees its own writes.
 */
export function readDb(ctx: { tx?: Executor }): Executor {
  return ctx.tx ?? getDb();
}

/**
 * Run `fn` in the caller's transaction, or a new one, with a context whose `tx` is that transaction: the
 * `withTx(ctx.tx, (tx) => { const c = { ...ctx, tx }; … })` every mutation wrote by hand.
 */
export function inTx<C extends { tx?: Executor }, T>(
  ctx: C,
  fn: (c: C & { tx: Tx }) => Promise<T>,
): Promise<T> {
  return withTx(ctx.tx, (tx) => fn({ ...ctx, tx }));
}

/**
 * For advisory-lock-then-count transactions (quota, placement): correct only at READ COMMITTED, where each
 * statement after the lock sees every transaction that held the lock before (REPEATABLE READ would count from
 * a snapshot taken before the wait and let two callers both see the same room). A new transaction is opened
 * at that level explicitly, whatever the server's default; an outer one at another level is refused.
 */
export async function withReadCommittedTx<T>(
  exec: Executor | undefined,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (exec && isTx(exec)) {
    const r = await exec.execute<{ level: string }>(
      sql`select current_setting('transaction_isolation') as level`,
    );
    const level = r.rows[0]?.level;
    if (level !== "read committed") {
      throw new Error(`This operation needs a READ COMMITTED transaction; the caller's is ${level}`);
    }
    return fn(exec);
  }
  return getDb().transaction(fn, { isolationLevel: "read committed" });
}

/** `inTx` at READ COMMITTED (see withReadCommittedTx): the context handed to `fn` carries the transaction. */
export function inReadCommittedTx<C extends { tx?: Executor }, T>(
  ctx: C,
  fn: (c: C & { tx: Tx }) => Promise<T>,
): Promise<T> {
  return withReadCommittedTx(ctx.tx, (tx) => fn({ ...ctx, tx }));
}

/**
 * withReadCommittedTx for a short transaction whose first statement is a read known before it opens (launch:
 * the access gate and every fact in one statement, which also takes the quota lock): a new transaction's
 * BEGIN is written together with that statement — one round trip less — and `fn` gets the statement's rows
 * with the context. BEGIN is answered before the statement: if it failed, the statement ran on its own (a
 * read, and a transaction-scoped lock it took ended with it) and nothing else is sent. In the caller's
 * transaction (READ COMMITTED, as withReadCommittedTx checks) the statement simply runs first.
 * `first.run` runs `first.query` (e.g. as a named prepared statement, lib/db/prepared.ts).
 */
export async function readCommittedTxFrom<C extends { tx?: Executor }, R extends Record<string, unknown>, T>(
  ctx: C,
  first: { query: SQL; run: (tx: Tx, query: SQL) => Promise<{ rows: R[] }> },
  fn: (c: C & { tx: Tx }, rows: R[]) => Promise<T>,
): Promise<T> {
  if (ctx.tx && isTx(ctx.tx)) {
    return withReadCommittedTx(ctx.tx, async (tx) =>
      fn({ ...ctx, tx }, (await first.run(tx, first.query)).rows),
    );
  }
  return readCommittedTxWith([first], async (tx, [read]) => {
    if (!read) throw new Error("readCommittedTxWith lost its statement");
    return fn({ ...ctx, tx }, (await read).rows);
  });
}

/** The database answered COMMIT with ROLLBACK: a statement of the transaction had failed; nothing was written. */
export class RolledBackError extends Error {
  constructor() {
    super("The transaction was rolled back: one of its statements had failed");
    this.name = "RolledBackError";
  }
}

/** COMMIT itself failed (e.g. the connection broke): whether the transaction was written is not known. */
export class CommitUnknownError extends Error {
  constructor(cause: unknown) {
    super(`COMMIT failed; whether the transaction was written is not known: ${String(cause)}`, { cause });
    this.name = "CommitUnknownError";
  }
}

/**
 * A new READ COMMITTED transaction on a connection of its own whose first statements are reads known before
 * it opens (readCommittedTxFrom's one; the launches coalesced into one transaction, one each): BEGIN and the
 * statements leave in one write, in order, and `fn` gets their results as promises (each may be awaited as
 * it arrives). `fn`'s return commits; its throw rolls back. A COMMIT answered with ROLLBACK (a failed
 * statement whose error `fn` did not rethrow) throws RolledBackError; a COMMIT that fails throws
 * CommitUnknownError.
 */
export async function readCommittedTxWith<R extends Record<string, unknown>, T>(
  first: Array<{ query: SQL; run: (tx: Tx, query: SQL) => Promise<{ rows: R[] }> }>,
  fn: (tx: Tx, reads: Array<Promise<{ rows: R[] }>>) => Promise<T>,
): Promise<T> {
  const client = await getPool().connect();
  const tx = txOn(client);
  // Corked, BEGIN and the statements leave in one write (one system call for both sides instead of two: on
  // loopback a write was ~0.1 ms of launch's CPU). All are put on the wire synchronously (pipelining, and
  // drizzle reaches client.query without awaiting), so uncorking right after sends them together.
  const stream = (client as unknown as { connection: { stream: Pick<Writable, "cork" | "uncork"> } })
    .connection.stream;
  stream.cork();
  let begin: Promise<unknown>;
  const reads: Array<Promise<{ rows: R[] }>> = [];
  try {
    begin = client.query("begin isolation level read committed");
    for (const f of first) reads.push(f.run(tx, f.query));
  } finally {
    stream.uncork();
  }
  // All are awaited by fn or answered before the rollback; until then a rejection must not count as unhandled.
  begin.catch(() => {});
  for (const r of reads) r.catch(() => {});
  try {
    await begin;
    const result = await fn(tx, reads);
    let done: pg.QueryResult;
    try {
      done = await client.query("commit");
    } catch (error) {
      throw new CommitUnknownError(error);
    }
    if (done.command !== "COMMIT") throw new RolledBackError();
    return result;
  } catch (error) {
    // Answered after the reads (one connection answers in order), so nothing of them is left behind.
    await client.query("rollback").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A drizzle transaction handle on one pooled connection, made once per connection: it holds nothing but
 * the connection, and building one (drizzle's database object) cost about as much as a short statement.
 */
const txByClient = new WeakMap<pg.PoolClient, Tx>();
function txOn(client: pg.PoolClient): Tx {
  let tx = txByClient.get(client);
  if (!tx) {
    const base = getDb() as unknown as { dialect: DrizzleDialect; session: DrizzleSession };
    const session = new NodePgSession(client, base.dialect, base.session.schema, base.session.options);
    tx = new NodePgTransaction(base.dialect, session, base.session.schema) as unknown as Tx;
    txByClient.set(client, tx);
  }
  return tx;
}

type DrizzleDialect = ConstructorParameters<typeof NodePgSession>[1];
type DrizzleSession = {
  schema: ConstructorParameters<typeof NodePgSession>[2];
  options: ConstructorParameters<typeof NodePgSession>[3];
};

function isTx(exec: Executor): exec is Tx {
  return "rollback" in exec;
}

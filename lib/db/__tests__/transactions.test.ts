import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Executor, getDb, getPool, readCommittedTxFrom, type Tx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";

const table = `tx_probe_${randomUUID().slice(0, 8)}`;
const T = sql.raw(table);
const run = (tx: Tx, q: ReturnType<typeof sql>) => executePrepared<Record<string, unknown>>(tx, q);

/** The wire of the next connection the pool hands out: "w" per write, "r" per read, in order. */
async function recordingWire<T>(
  body: () => Promise<T>,
): Promise<{ result: T; roundTrips: number; syscalls: number }> {
  const pool = getPool();
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const log: string[] = [];
  let syscalls = 0;
  let undo = () => {};
  (pool as unknown as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
    const client = await connect();
    const stream = (
      client as unknown as { connection: { stream: NodeJS.WritableStream & NodeJS.ReadableStream } }
    ).connection.stream;
    // What reaches the socket: one call of _write or _writev per system call (corked writes are batched).
    const sock = stream as unknown as Record<"_write" | "_writev", (...x: unknown[]) => unknown>;
    const [w1, wv] = [sock._write, sock._writev];
    sock._write = function (this: unknown, ...a: unknown[]) {
      syscalls++;
      return w1.apply(this, a);
    };
    sock._writev = function (this: unknown, ...a: unknown[]) {
      syscalls++;
      return wv.apply(this, a);
    };
    const write = stream.write;
    stream.write = function (this: unknown, ...a: unknown[]) {
      log.push("w");
      return (write as (...x: unknown[]) => boolean).apply(this, a);
    } as typeof stream.write;
    const onData = () => log.push("r");
    stream.prependListener("data", onData);
    undo = () => {
      sock._write = w1;
      sock._writev = wv;
      stream.write = write;
      stream.removeListener("data", onData);
    };
    return client;
  };
  try {
    const result = await body();
    // A round trip: writes, then the answer read before the next write.
    const roundTrips = log.join("").replace(/w+/g, "w").replace(/r+/g, "r").split("wr").length - 1;
    return { result, roundTrips, syscalls };
  } finally {
    (pool as unknown as { connect: typeof connect }).connect = connect;
    undo();
  }
}

beforeAll(async () => {
  await getDb().execute(sql`create table ${T} (id serial primary key, note text not null)`);
});
afterAll(async () => {
  await getDb().execute(sql`drop table if exists ${T}`);
});

describe("readCommittedTxFrom", () => {
  it("sends BEGIN with the first statement: one READ COMMITTED transaction in three round trips and three writes", async () => {
    const first = sql`select pg_current_xact_id()::text as xact, current_setting('transaction_isolation') as level`;
    const { result, roundTrips, syscalls } = await recordingWire(() =>
      readCommittedTxFrom({}, { query: first, run }, async (c, rows) => {
        const later = await c.tx.execute<{ xact: string }>(
          sql`insert into ${T} (note) values ('committed') returning pg_current_xact_id()::text as xact`,
        );
        return { first: rows[0], later: later.rows[0]?.xact };
      }),
    );
    expect(result.first).toMatchObject({ level: "read committed" });
    expect(result.later).toBe(result.first?.xact);
    // begin + first statement, the insert, commit.
    expect(roundTrips).toBe(3);
    // …and BEGIN leaves in the same write (system call) as the first statement: three writes, not four.
    expect(syscalls).toBe(3);
    const rows = await getDb().execute(sql`select note from ${T} where note = 'committed'`);
    expect(rows.rows).toHaveLength(1);
  });

  it("rolls back what fn wrote when it throws, and when the first statement fails nothing runs", async () => {
    const err = await readCommittedTxFrom({}, { query: sql`select 1 as one`, run }, async (c) => {
      await c.tx.execute(sql`insert into ${T} (note) values ('rolled back')`);
      throw new Error("refused");
    }).catch((e: unknown) => e);
    expect(err).toEqual(new Error("refused"));
    let ran = false;
    const bad = await readCommittedTxFrom({}, { query: sql`select 1 / 0 as boom`, run }, async () => {
      ran = true;
    }).catch((e: unknown) => e);
    expect(String((bad as { cause?: unknown }).cause)).toMatch(/division by zero/);
    expect(ran).toBe(false);
    const rows = await getDb().execute(sql`select note from ${T} where note = 'rolled back'`);
    expect(rows.rows).toHaveLength(0);
    // Every connection went back to the pool in a usable state.
    const pool = getPool();
    expect(pool.totalCount - pool.idleCount).toBe(0);
    await expect(getDb().execute(sql`select 1`)).resolves.toBeTruthy();
  });

  it("runs in the caller's transaction when there is one, and refuses one that is not READ COMMITTED", async () => {
    const first = sql`select pg_current_xact_id()::text as xact`;
    const same = await getDb().transaction(async (tx) => {
      const outer = (await tx.execute<{ xact: string }>(sql`select pg_current_xact_id()::text as xact`))
        .rows[0];
      const inner = await readCommittedTxFrom(
        { tx: tx as Executor },
        { query: first, run },
        async (_c, rows) => rows[0],
      );
      return { outer, inner };
    });
    expect(same.inner).toEqual(same.outer);
    const refused = await getDb()
      .transaction(
        (tx) => readCommittedTxFrom({ tx: tx as Executor }, { query: first, run }, async () => "ran"),
        { isolationLevel: "repeatable read" },
      )
      .catch((e: unknown) => e);
    expect(String(refused)).toMatch(/READ COMMITTED/);
  });
});

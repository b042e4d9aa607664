import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type pg from "pg";
import { describe, expect, it } from "vitest";
import {
  referenceFilterTerms,
  referenceOfferingsCte,
  referencePageQuery,
} from "@/lib/catalog/offerings-reference";
import { catalogFiltersSchema } from "@/lib/catalog/schemas";
import { insertSynthetic, syntheticPlan } from "@/lib/catalog/synthetic";
import { getDb, getPool } from "@/lib/db/client";

/*
 * offering_summaries.available (drizzle 0031) is rewritten from node_capacity at the commit of each transaction
 * that changed a node's capacity. Each test compares the kept figures with a recount from the GPUs and live
 * allocations (the reference statement over recountedNodeCapacity), so each fails when the maintenance is
 * missing or reads a stale snapshot.
 */

const db = () => getDb();
type Figures = Record<string, number>;

/** The kept figure of every offering on sale in `region` now, as `type@region` → available. */
async function kept(region: string[]): Promise<Figures> {
  const { rows } = await db().execute<{ k: string; available: number }>(sql`
    select instance_type_id || '@' || region_code as k, available from offering_summaries
    where region_code = any(${sql.param(region)}::text[]) and valid_from <= now() and valid_to > now()`);
  return Object.fromEntries(rows.map((r) => [r.k, r.available]));
}

/** The same figures recounted from node_gpus and gpu_allocations (the catalog's previous statement). */
async function recounted(region: string[]): Promise<Figures> {
  const f = catalogFiltersSchema.parse({ region, pageSize: 100 });
  const { rows } = await db().execute<{ instance_type_id: string; region_code: string; available: number }>(
    referencePageQuery(referenceOfferingsCte(new Date(), [], referenceFilterTerms(f), "recounted"), f),
  );
  return Object.fromEntries(rows.map((r) => [`${r.instance_type_id}@${r.region_code}`, Number(r.available)]));
}

async function fleet() {
  const plan = syntheticPlan({ regions: 2, models: 2, typesPerModel: 4, nodesPerRegionModel: 2 });
  await insertSynthetic(db(), plan, new Date(Date.now() - 86_400_000));
  const codes = plan.regionRows.map((r) => r.code);
  const { rows } = await db().execute<{
    id: string;
    node_id: string;
    region_code: string;
    gpu_model_id: string;
  }>(
    sql`select g.id, g.node_id, n.region_code, n.gpu_model_id from node_gpus g join nodes n on n.id = g.node_id
      where n.region_code = any(${sql.param(codes)}::text[]) order by n.region_code, n.gpu_model_id, n.name, g.gpu_index`,
  );
  /** `count` whole GPUs of the `k`-th node of region `r`'s model `m` (each node has 8). */
  const gpus = (r: number, m: number, k: number, count: number) => {
    const node = [
      ...new Set(
        rows
          .filter((g) => g.region_code === codes[r] && g.gpu_model_id === plan.models[m]?.id)
          .map((g) => g.node_id),
      ),
    ][k];
    return rows.filter((g) => g.node_id === node).slice(0, count);
  };
  return { plan, codes, gpus };
}

const allocateSql = (gpus: { id: string; node_id: string }[], instanceId = randomUUID()) => ({
  text: `insert into gpu_allocations (org_id, instance_id, node_id, node_gpu_id, slices)
    select $1::uuid, $2::uuid, g.node_id, g.id, 7 from unnest($3::uuid[], $4::uuid[]) as g(id, node_id)`,
  values: [randomUUID(), instanceId, gpus.map((g) => g.id), gpus.map((g) => g.node_id)],
});

async function inTx(fn: (c: pg.PoolClient) => Promise<void>) {
  const c = await getPool().connect();
  try {
    await c.query("begin");
    await fn(c);
    await c.query("commit");
  } catch (err) {
    await c.query("rollback");
    throw err;
  } finally {
    c.release();
  }
}

describe("offering_summaries.available (kept at commit from node_capacity)", () => {
  it("follows an allocation and its release at their commits, without locking the offerings before", async () => {
    const { codes, gpus } = await fleet();
    const before = await kept(codes);
    expect(before).toEqual(await recounted(codes));
    const instanceId = randomUUID();
    const gpusOfAlloc = gpus(0, 0, 0, 3);
    await inTx(async (c) => {
      await c.query(allocateSql(gpusOfAlloc, instanceId));
      // Until commit nothing in the summary changed, and nothing there is locked: another transaction may
      // write every offering of that region (a scheduler pass must not hold them while it locks more nodes).
      expect(await kept(codes)).toEqual(before);
      await db().execute(
        sql`select 1 from offering_summaries where region_code = ${codes[0]} for update nowait`,
      );
    });
    const allocated = await kept(codes);
    expect(allocated).toEqual(await recounted(codes));
    expect(allocated).not.toEqual(before);

    await inTx(async (c) => {
      await c.query("update gpu_allocations set released_at = now() where instance_id = $1", [instanceId]);
    });
    expect(await kept(codes)).toEqual(await recounted(codes));
    expect(await kept(codes)).toEqual(before);
  });

  it("recounts every region's model a transaction changed, one savepoint rolled back", async () => {
    const { codes, gpus } = await fleet();
    const before = await kept(codes);
    await inTx(async (c) => {
      await c.query(allocateSql(gpus(0, 0, 0, 8)));
      await c.query("savepoint s");
      await c.query(allocateSql(gpus(1, 1, 0, 5)));
      await c.query("rollback to savepoint s");
      await c.query(allocateSql(gpus(1, 0, 1, 2)));
      await c.query(allocateSql(gpus(0, 1, 1, 7)));
    });
    const after = await kept(codes);
    expect(after).toEqual(await recounted(codes));
    // Each of the three committed allocations changed some figure of its region's model.
    const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
    for (const [r, m] of [
      [0, 0],
      [1, 0],
      [0, 1],
    ] as const)
      expect(changed.some((k) => k.endsWith(`@${codes[r]}`) && k.includes(`-m${m}.`))).toBe(true);
  });

  it("two transactions on one model's nodes, committed in turn, leave the recount of both", async () => {
    const { codes, gpus } = await fleet();
    const first = await getPool().connect();
    try {
      await first.query("begin");
      await first.query(allocateSql(gpus(0, 0, 0, 4)));
      // The second commits while the first is open: its recount cannot see the first's allocation ...
      await inTx(async (c) => {
        await c.query(allocateSql(gpus(0, 0, 1, 6)));
      });
      expect(await kept(codes)).toEqual(await recounted(codes));
      // ... and the first's, at its commit, sees the second's.
      await first.query("commit");
    } finally {
      first.release();
    }
    expect(await kept(codes)).toEqual(await recounted(codes));
  });
});

import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ConflictError, type Ctx, systemCtx, type UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { quotaDefaults } from "@/lib/db/schema";
import {
  createFixedProvider,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
} from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec, testClock } from "@/lib/provisioning/__tests__/fixtures";
import { setOrgQuota, setQuotaDefault } from "@/lib/quotas";

beforeAll(() => setProvider(createFixedProvider({ provisionMs: 10_000, stopMs: 5_000, terminateMs: 2_000 })));

/** An organization on the defaults running 2 H100s in a fresh region, and an operator. */
async function running2() {
  const clock = testClock();
  const fleet = await newFleet([{ gpus: 8 }]);
  const o = await newOrg("on-default", clock);
  const op: Ctx = { actor: { ...(o.actor as UserActor), isOperator: true }, now: clock.now };
  await launch(o.ctx, o.slug, notebookSpec(fleet.region, { instanceType: "h100.2x" }));
  await placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: fleet.region });
  clock.advance(11_000);
  await reconcileInstances(systemCtx("provider", { now: clock.now }), { regionCode: fleet.region });
  return { o, op, fleet };
}
const stored = (region: string, model = "h100") =>
  getDb()
    .select({ nominal: quotaDefaults.nominalGpus })
    .from(quotaDefaults)
    .where(and(eq(quotaDefaults.gpuModelId, model), eq(quotaDefaults.regionCode, region)));

describe("lowering a quota default below what organizations on it hold", () => {
  it("is refused until confirmed, naming them; nothing is written on refusal", async () => {
    const { o, op, fleet } = await running2();
    const k = { gpuModelId: "h100", regionCode: fleet.region, borrowingLimitGpus: 0 };
    const refusal = await setQuotaDefault(op, { ...k, nominalGpus: 1 }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ConflictError);
    expect((refusal as ConflictError).details).toMatchObject({
      reason: "default_below_use",
      orgCount: 1,
      orgNames: o.org.name,
      heldGpus: 2,
      over: [{ orgId: o.org.id, gpuModelId: "h100", regionCode: fleet.region, heldGpus: 2 }],
    });
    expect(await stored(fleet.region)).toEqual([]);
    // At or above what it holds, nothing to confirm; confirmed, a cut is saved.
    await setQuotaDefault(op, { ...k, nominalGpus: 2 });
    await setQuotaDefault(op, { ...k, nominalGpus: 1, confirmReclaim: true });
    expect(await stored(fleet.region)).toEqual([{ nominal: 1 }]);
  });

  it("leaves out organizations with their own quota row and those a more specific default governs", async () => {
    const { o, op, fleet } = await running2();
    // A wildcard default is shadowed here by the exact one for h100 in this region.
    await setQuotaDefault(op, {
      gpuModelId: "h100",
      regionCode: fleet.region,
      nominalGpus: 4,
      borrowingLimitGpus: 0,
    });
    await setQuotaDefault(op, {
      gpuModelId: "*",
      regionCode: fleet.region,
      nominalGpus: 0,
      borrowingLimitGpus: 0,
    });
    expect(await stored(fleet.region, "*")).toEqual([{ nominal: 0 }]);
    // Its own row: the defaults do not govern it at all.
    await setOrgQuota(op, {
      orgId: o.org.id,
      gpuModelId: "h100",
      regionCode: fleet.region,
      nominalGpus: 2,
      borrowingLimitGpus: 0,
    });
    await setQuotaDefault(op, {
      gpuModelId: "h100",
      regionCode: fleet.region,
      nominalGpus: 0,
      borrowingLimitGpus: 0,
    });
    const rows = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from quota_defaults where region_code = ${fleet.region}`,
    );
    expect(rows.rows[0]?.n).toBe(2);
  });
});

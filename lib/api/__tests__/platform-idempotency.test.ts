import { randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { POST as createCohort } from "@/app/api/v1/admin/cohorts/route";
import { POST as addNode } from "@/app/api/v1/admin/nodes/route";
import { POST as schedulePrice } from "@/app/api/v1/admin/prices/route";
import type { UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { apiIdempotencyKeys, cohorts, prices } from "@/lib/db/schema";
import { newFleet, newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { expectProblem, postJson } from "./support";

// The console's session (admin-scope tokens are tested in admin-tokens.test.ts).
const session = vi.hoisted(() => ({ actor: null as UserActor | null }));
vi.mock("@/lib/auth/session", async (orig) => ({
  ...(await orig<Record<string, unknown>>()),
  getActor: async () => session.actor,
}));
const console_ = { cookie: "next-auth.session-token=t", host: "forja.test", origin: "http://forja.test" };
const keyed = (key: string) => ({ headers: { ...console_, "idempotency-key": key } });

async function operator(prefix: string): Promise<UserActor> {
  const o = await newOrg(prefix);
  return { ...(o.actor as UserActor), isOperator: true };
}

const platformKeys = async (userId: string) =>
  getDb()
    .select()
    .from(apiIdempotencyKeys)
    .where(and(isNull(apiIdempotencyKeys.orgId), eq(apiIdempotencyKeys.userId, userId)));

describe("Idempotency-Key on the operators' creates (issue 10)", () => {
  it("cohorts: the same key and body replay the first answer; another body with it is a 409", async () => {
    session.actor = await operator("idem-cohort");
    const key = `cohort-${randomUUID()}`;
    const name = `idem-${randomUUID().slice(0, 8)}`;
    const first = await postJson(createCohort, "/admin/cohorts", {}, { name }, keyed(key));
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const made = await first.json();
    // Without the key the same body is a 422 (the name is taken): the key is what makes the retry safe.
    const again = await postJson(createCohort, "/admin/cohorts", {}, { name }, keyed(key));
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(made);
    const other = await postJson(createCohort, "/admin/cohorts", {}, { name: `${name}-b` }, keyed(key));
    expect((await expectProblem(other, 409)).reason).toBe("idempotency_key_reused");
    const rows = await getDb()
      .select()
      .from(cohorts)
      .where(sql`${cohorts.name} like ${`${name}%`}`);
    expect(rows.map((r) => r.name)).toEqual([name]);
    expect((await platformKeys(session.actor.userId)).map((k) => k.key)).toEqual([key]);
    session.actor = null;
  });

  it("nodes: concurrent retries with one key add the node once and all answer it", async () => {
    const fleet = await newFleet([]);
    session.actor = await operator("idem-node");
    const key = `node-${randomUUID()}`;
    const node = {
      name: `idem-${randomUUID().slice(0, 8)}`,
      regionCode: fleet.region,
      gpuModelId: "h100",
      gpuCount: 2,
      vcpus: 32,
      ramGib: 256,
    };
    const answers = await Promise.all(
      [0, 1, 2].map(() => postJson(addNode, "/admin/nodes", {}, node, keyed(key))),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    const ids = await Promise.all(answers.map(async (r) => ((await r.json()) as { id: string }).id));
    expect(new Set(ids).size).toBe(1);
    const count = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from nodes where region_code = ${fleet.region}`,
    );
    expect(count.rows[0]?.n).toBe(1);
    session.actor = null;
  });

  it("prices: replayed for its operator; another operator's same key is theirs; a non-operator gets a 403", async () => {
    const fleet = await newFleet([{ gpus: 1 }]);
    const a = await operator("idem-price-a");
    const b = await operator("idem-price-b");
    const key = `price-${randomUUID()}`;
    const change = {
      instanceTypeId: "h100.1x",
      regionCode: fleet.region,
      pricingModel: "on_demand",
      usdPerHour: 3.1,
      effectiveFrom: new Date(Date.now() + 30 * 86400_000).toISOString(),
    };
    session.actor = { ...a, isOperator: false };
    await expectProblem(await postJson(schedulePrice, "/admin/prices", {}, change, keyed(key)), 403);
    session.actor = a;
    const first = await postJson(schedulePrice, "/admin/prices", {}, change, keyed(key));
    expect(first.status).toBe(201);
    const made = await first.json();
    // The same time again without the key would be a 409 price_change_taken.
    const again = await postJson(schedulePrice, "/admin/prices", {}, change, keyed(key));
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(made);
    session.actor = { ...a, isOperator: false };
    await expectProblem(await postJson(schedulePrice, "/admin/prices", {}, change, keyed(key)), 403);
    session.actor = b;
    const later = { ...change, effectiveFrom: new Date(Date.now() + 31 * 86400_000).toISOString() };
    const bs = await postJson(schedulePrice, "/admin/prices", {}, later, keyed(key));
    expect(bs.status).toBe(201);
    const scheduled = await getDb()
      .select()
      .from(prices)
      .where(and(eq(prices.regionCode, fleet.region), eq(prices.instanceTypeId, "h100.1x")));
    expect(scheduled.filter((p) => p.pricingModel === "on_demand")).toHaveLength(3);
    session.actor = null;
  });

  it("two platform keys of one operator collide though org_id is null (NULLS NOT DISTINCT)", async () => {
    const a = await operator("idem-null");
    const row = {
      orgId: null,
      userId: a.userId,
      key: `raw-${randomUUID()}`,
      requestHash: "x",
      status: 201,
      body: {},
    };
    await getDb().insert(apiIdempotencyKeys).values(row);
    await expect(getDb().insert(apiIdempotencyKeys).values(row)).rejects.toThrow();
  });
});

import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBudget } from "@/lib/budgets";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  billingCatalog,
  newBillingOrg,
  scriptedInstance,
  testClock,
} from "@/lib/metering/__tests__/fixtures";
import { placeQueuedInstances } from "@/lib/provisioning";

/**
 * The scheduler's quota gate asks budgets first, in one statement, which organization × project pairs of the
 * queue a budget that blocks launches covers; only those have their spend computed.
 */
describe("the scheduler and budgets that block launches", () => {
  it("keeps queued work of a used-up budget's scope waiting, with the budget as its reason, and places the rest", async () => {
    const cat = await billingCatalog();
    const clock = testClock("2030-05-01T05:00:00Z");
    const capped = await newBillingOrg(clock, "gate-cap");
    const free = await newBillingOrg(clock, "gate-free");
    // $2.50/h since midnight: $12.50 spent at 05:00, over a $5 budget that blocks launches.
    await scriptedInstance(capped, cat, [
      ["2030-05-01T00:00:00Z", "provisioning"],
      ["2030-05-01T00:00:00Z", "running"],
    ]);
    const waiting = await scriptedInstance(capped, cat, [["2030-05-01T04:59:00Z", "queued"]]);
    const placed = await scriptedInstance(free, cat, [["2030-05-01T04:59:00Z", "queued"]]);
    await createBudget(capped.ctx, capped.slug, { name: "Cap", amountUsd: 5, actionAt100: "block_launches" });

    await placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: cat.region });

    const rows = await getDb().execute<{ id: string; state: string; reason: unknown }>(sql`
      select id, state::text as state, queue_reason as reason from instances
      where id in (${waiting.id}, ${placed.id})`);
    const of = new Map(rows.rows.map((r) => [r.id, r]));
    expect(of.get(placed.id)?.state).toBe("provisioning");
    expect(of.get(waiting.id)?.state).toBe("queued");
    expect(of.get(waiting.id)?.reason).toEqual({ code: "budget_blocked", params: { budget: "Cap" } });
  });
});

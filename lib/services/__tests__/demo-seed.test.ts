import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { projects, services } from "@/lib/db/schema";
import { ensureCatalog, newOrg, testClock } from "@/lib/provisioning/__tests__/fixtures";
import { DEMO_SERVICE, deleteService, getService, seedDemoService } from "@/lib/services";

describe("the demo's inference service", () => {
  it("is a real service with a day of gateway traffic that its page's figures and charts read", async () => {
    await ensureCatalog();
    const clock = testClock("2030-06-03T15:00:00Z");
    const o = await newOrg("svc-demo", clock);
    await getDb().insert(projects).values({
      orgId: o.org.id,
      slug: DEMO_SERVICE.project,
      name: "Inference (prod)",
      createdAt: new Date(),
    });
    const svc = await seedDemoService(o.ctx, o.slug, { now: clock.now() });
    const [row] = await getDb().select().from(services).where(eq(services.id, svc.id));
    expect(row).toMatchObject({ name: "chat-demo", desiredReplicas: 1 });

    const dayAgo = new Date(clock.now().getTime() - 86_400_000);
    const stored = await getDb().execute<{ n: number; requests: number; last: string }>(sql`
      select count(*)::int as n, (sum(requests) filter (where at > ${dayAgo}))::int as requests,
        max(at)::text as last
      from service_traffic where service_id = ${svc.id}`);
    expect(stored.rows[0]?.n).toBe(24 * 120);
    // Nothing in the last 5 minutes: the autoscaler's windows see live traffic only.
    expect(new Date(stored.rows[0]?.last as string).getTime()).toBeLessThanOrEqual(
      clock.now().getTime() - 5 * 60_000,
    );

    const day = await getService(o.ctx, o.slug, svc.id, "24h");
    expect(day.stats.requests).toBe(stored.rows[0]?.requests);
    expect(day.stats.p95Ms).toBeGreaterThan(day.stats.p50Ms as number);
    // The afternoon peak is busier than the night.
    const at = (h: number) => day.series.find((p) => new Date(p.t).getUTCHours() === h && p.rps > 0);
    expect(at(13)?.rps).toBeGreaterThan((at(2)?.rps ?? 0) * 3);
    // The hour's chart (30 s steps) has a value in every step until the history stops.
    const hour = await getService(o.ctx, o.slug, svc.id, "1h");
    const filled = hour.series.filter((p) => p.t < clock.now().getTime() - 6 * 60_000);
    expect(filled.length).toBeGreaterThan(100);
    expect(filled.every((p) => p.rps > 0 && p.p95Ms !== null)).toBe(true);
    await deleteService(o.ctx, o.slug, svc.id);
  });
});

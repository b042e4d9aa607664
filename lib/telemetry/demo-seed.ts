import "server-only";
import { sql } from "drizzle-orm";
import type { UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { seedDefaultQuotas, seedImages } from "@/lib/provisioning";
import { backfillHistory } from "./history";

/**
 * The demo's history on first start: FORJA_DEMO_HISTORY_DAYS days (default 30; 0 skips it) of the demo
 * organization's work, made by the engine. Images and the demo quotas must exist first (both seeds are
 * idempotent, so running them here as well as elsewhere is harmless). A failure leaves a working, empty demo
 * and says so, rather than stopping the start command.
 */
export async function seedDemoHistory(orgId: string, opts: { now?: Date } = {}): Promise<void> {
  const days = Number(process.env.FORJA_DEMO_HISTORY_DAYS ?? 30);
  if (!Number.isFinite(days) || days <= 0) return;
  const db = getDb();
  await db.transaction(async (tx) => {
    await seedImages(tx);
    await seedDefaultQuotas(tx, orgId);
  });
  const people = await db.execute<{ id: string; email: string }>(sql`
    select u.id, u.email from memberships m join users u on u.id = m.user_id
    where m.org_id = ${orgId} and m.role in ('owner', 'admin', 'member') order by m.role, u.email`);
  const actors: UserActor[] = people.rows.map((u) => ({
    kind: "user",
    userId: u.id,
    email: u.email,
    isOperator: false,
  }));
  const [first] = actors;
  if (!first) return;
  console.log(`[forja] back-filling ${days} days of demo history through the engine…`);
  try {
    const r = await backfillHistory({ actor: first }, { orgId, days, actors, now: opts.now });
    console.log(
      `[forja] history: ${r.instances} instances, ${r.events} events, ${r.rollupRows} rollups, ` +
        `${r.rawSamples} raw samples in ${(r.ms.total / 1000).toFixed(1)} s ` +
        `(engine ${(r.ms.engine / 1000).toFixed(1)} s, metrics ${(r.ms.metrics / 1000).toFixed(1)} s)`,
    );
  } catch (err) {
    console.error("[forja] the demo history could not be back-filled; the console works without it", err);
  }
}

import "server-only";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { type Ctx, checkpoint, nowOf } from "@/lib/core";
import { type Tx, withTx } from "@/lib/db/client";
import { meteringCursors, usageRecords } from "@/lib/db/schema";
import { applyReservations } from "./coverage";
import { ledgerDiff, type StoredRow } from "./diff";
import { priceRows } from "./ledger-rows";
import { loadOrgUsageInputs } from "./load";
import { PriceBook } from "./price-book";
import { floorHour, LOOKBACK_MS, SETTLE_MS } from "./rates";
import { billableSegments } from "./segments";

export type MeteringResult = { orgs: number; rows: number; corrections: number; meteredUntil: Date };

/**
 * The metering pass the worker runs: turns instance_events (and reservations) into ledger rows for every
 * whole clock hour that ended at least SETTLE_MS ago. Per organization, in its own transaction under a
 * per-organization advisory lock (a second worker skips it), it recomputes the window since its cursor (minus
 * a look-back, or from a late event), compares with what the ledger already says and appends only the
 * difference. Running it twice for the same instant writes nothing the second time.
 */
export async function meterUsage(
  ctx: Ctx,
  opts: {
    now?: Date;
    limit?: number;
    /** Only these organizations (tests; an operator re-running one tenant). */
    orgIds?: string[];
  } = {},
): Promise<MeteringResult> {
  const now = opts.now ?? nowOf(ctx);
  const until = floorHour(now.getTime() - SETTLE_MS);
  await withTx(ctx.tx, (tx) => markLateEvents(tx, now));
  const candidates = await withTx(ctx.tx, (tx) => candidateOrgs(tx, until, opts.limit ?? 200, opts.orgIds));
  const result: MeteringResult = { orgs: 0, rows: 0, corrections: 0, meteredUntil: new Date(until) };
  for (const orgId of candidates) {
    const r = await withTx(ctx.tx, (tx) => meterOrg(tx, orgId, until, now));
    if (!r) continue;
    result.orgs++;
    result.rows += r.rows;
    result.corrections += r.corrections;
  }
  return result;
}

/**
 * Events recorded after their organization was metered past their time (a transition written late) mark the
 * organization dirty from that hour, so the next pass re-meters it and appends corrections. Every event is
 * looked at once, by its metering_seen flag: an event whose transaction commits after this pass (whatever its
 * id) is still unseen next time, so none is skipped. One pass at a time (the metering_state row lock).
 */
async function markLateEvents(tx: Tx, now: Date): Promise<void> {
  await tx.execute(sql`insert into metering_state (id, last_event_id) values (1, 0) on conflict do nothing`);
  await tx.execute(sql`select 1 from metering_state where id = 1 for update`);
  await tx.execute(sql`
    with seen as (
      update instance_events set metering_seen = true where not metering_seen returning org_id, at
    )
    update metering_cursors c set dirty_from = least(c.dirty_from, date_trunc('hour', l.earliest)), updated_at = ${now}
    from (select org_id, min(at) as earliest from seen group by org_id) l
    where l.org_id = c.org_id and l.earliest < c.metered_until`);
  await checkpoint("metering.late-events.marked");
}

async function candidateOrgs(tx: Tx, until: number, limit: number, only?: string[]): Promise<string[]> {
  const res = await tx.execute<{ id: string }>(sql`
    select o.id from organizations o
    left join metering_cursors c on c.org_id = o.id
    where ${only ? sql`o.id = any(${`{${only.join(",")}}`}::uuid[]) and` : sql``} ((c.org_id is null and (
             exists (select 1 from instance_events e where e.org_id = o.id and e.at < ${new Date(until)})
             or exists (select 1 from reservations r where r.org_id = o.id and r.starts_at < ${new Date(until)})))
       or c.metered_until < ${new Date(until)}
       or c.dirty_from is not null)
    order by c.metered_until nulls first
    limit ${limit}`);
  return res.rows.map((r) => r.id);
}

async function meterOrg(
  tx: Tx,
  orgId: string,
  until: number,
  now: Date,
): Promise<{ rows: number; corrections: number } | null> {
  const lock = await tx.execute<{ ok: boolean }>(
    sql`select pg_try_advisory_xact_lock(hashtext('forja:metering'), hashtext(${orgId})) as ok`,
  );
  if (!lock.rows[0]?.ok) return null;
  const [cursor] = await tx.select().from(meteringCursors).where(eq(meteringCursors.orgId, orgId));
  let from: number;
  if (!cursor) {
    const first = await tx.execute<{ at: Date | string | null }>(sql`
      select least((select min(at) from instance_events where org_id = ${orgId}),
                   (select min(starts_at) from reservations where org_id = ${orgId})) as at`);
    const at = first.rows[0]?.at;
    from = at ? floorHour(new Date(at).getTime()) : until;
  } else {
    const dirty = cursor.dirtyFrom?.getTime() ?? Number.POSITIVE_INFINITY;
    const advance =
      cursor.meteredUntil.getTime() < until ? cursor.meteredUntil.getTime() - LOOKBACK_MS : dirty;
    from = floorHour(Math.min(dirty, advance));
  }
  let written = { rows: 0, corrections: 0 };
  if (from < until) written = await meterWindow(tx, orgId, from, until, now);
  await checkpoint("metering.org.written");
  await tx
    .insert(meteringCursors)
    .values({ orgId, meteredUntil: new Date(until), dirtyFrom: null, updatedAt: now })
    .onConflictDoUpdate({
      target: meteringCursors.orgId,
      set: {
        meteredUntil: sql`greatest(${meteringCursors.meteredUntil}, excluded.metered_until)`,
        // A late event marked meanwhile (after this pass read the cursor) keeps its mark.
        dirtyFrom: sql`case when ${meteringCursors.dirtyFrom} is not distinct from ${cursor?.dirtyFrom ?? null}::timestamptz
                       then null else ${meteringCursors.dirtyFrom} end`,
        updatedAt: now,
      },
    });
  return written;
}

async function meterWindow(tx: Tx, orgId: string, from: number, to: number, now: Date) {
  const { instances, changes, reservations } = await loadOrgUsageInputs(tx, orgId, from, to);
  const book = await PriceBook.load(
    tx,
    [...new Set(instances.map((i) => `${i.instanceTypeId}|${i.regionCode}`))].map((k) => {
      const [typeId = "", region = ""] = k.split("|");
      return { typeId, region };
    }),
  );
  const segments = instances.flatMap((inst) =>
    billableSegments(
      inst,
      changes.get(inst.id) ?? [],
      from,
      to,
      book.changePoints(inst.instanceTypeId, inst.regionCode),
    ),
  );
  const { pieces, unused } = applyReservations(segments, reservations, from, to);
  const desired = priceRows(pieces, unused, book);
  const stored = (await tx
    .select()
    .from(usageRecords)
    .where(
      and(
        eq(usageRecords.orgId, orgId),
        gte(usageRecords.periodStart, new Date(from)),
        lt(usageRecords.periodStart, new Date(to)),
      ),
    )) as StoredRow[];
  const rows = ledgerDiff(desired, stored);
  for (let i = 0; i < rows.length; i += 1000) {
    await tx
      .insert(usageRecords)
      .values(rows.slice(i, i + 1000).map((r) => ({ ...r, createdAt: now })))
      .onConflictDoNothing();
  }
  return { rows: rows.length, corrections: rows.filter((r) => r.entry !== "usage").length };
}

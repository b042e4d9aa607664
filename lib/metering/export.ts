import "server-only";
import { sql } from "drizzle-orm";
import { type Ctx, csvField } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { costScopeOf } from "./access";
import { type CostRangeInput, costRangeSchema } from "./schemas";

export const LEDGER_CSV_COLUMNS = [
  "id",
  "entry",
  "correction_of",
  "kind",
  "period_start",
  "period_end",
  "seconds",
  "project",
  "instance_id",
  "instance_name",
  "reservation_id",
  "instance_type",
  "gpu_model",
  "region",
  "pricing_model",
  "quantity",
  "unit",
  "unit_price",
  "amount",
  "currency",
] as const;

const BATCH = 1000;

type CsvRow = Record<(typeof LEDGER_CSV_COLUMNS)[number], unknown> & { id: string };

/**
 * The ledger of a range as CSV lines (header first), read in keyset-paginated batches so a route handler
 * can stream a year of rows without holding them. Access is checked before the first line is produced.
 */
export async function exportLedgerCsv(
  ctx: Ctx,
  orgSlug: string,
  raw: CostRangeInput,
  opts: { batchSize?: number } = {},
): Promise<{ filename: string; lines: AsyncGenerator<string> }> {
  const batch = opts.batchSize ?? BATCH;
  const { org, projectId, input } = await costScopeOf(ctx, orgSlug, costRangeSchema, raw);
  const exec = readDb(ctx);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  async function* lines(): AsyncGenerator<string> {
    yield `${LEDGER_CSV_COLUMNS.join(",")}\r\n`;
    let after: { start: string; id: string } | null = null;
    for (;;) {
      const res: { rows: Array<CsvRow & { sort_start: string }> } = await exec.execute<
        CsvRow & { sort_start: string }
      >(sql`
        select u.id::text as id, u.entry, u.correction_of, u.kind,
          to_char(u.period_start at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as period_start,
          to_char(u.period_end at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as period_end, u.seconds,
          p.slug as project, u.instance_id, i.name as instance_name, u.reservation_id,
          u.instance_type_id as instance_type, u.gpu_model_id as gpu_model, u.region_code as region,
          u.pricing_model, u.quantity, u.unit, u.unit_price, u.amount, u.currency, u.period_start::text as sort_start
        from usage_records u
        left join projects p on p.id = u.project_id
        left join instances i on i.id = u.instance_id
        where u.org_id = ${org.id} and u.period_start >= ${input.from} and u.period_start < ${input.to}
          ${projectId ? sql`and u.project_id = ${projectId}` : sql``}
          ${after ? sql`and (u.period_start, u.id) > (${after.start}::timestamptz, ${after.id}::bigint)` : sql``}
        order by u.period_start, u.id
        limit ${batch}`);
      for (const r of res.rows) yield `${LEDGER_CSV_COLUMNS.map((c) => csvField(r[c])).join(",")}\r\n`;
      const last = res.rows.at(-1);
      if (!last || res.rows.length < batch) return;
      after = { start: last.sort_start, id: last.id };
    }
  }
  return { filename: `forja-usage-${orgSlug}-${day(input.from)}-${day(input.to)}.csv`, lines: lines() };
}

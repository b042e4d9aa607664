import "server-only";
import { sql } from "drizzle-orm";
import { requireOperator } from "@/lib/access";
import type { Ctx } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { gpuAllocations, nodes, organizations, outbox, regions, users } from "@/lib/db/schema";

export type PlatformOverview = {
  organizations: number;
  users: number;
  regions: number;
  nodes: number;
  gpusTotal: number;
  gpusAllocated: number;
  outboxPending: number;
  outboxFailed: number;
};

/** Headline counts for the operator, in one round trip. */
export async function getPlatformOverview(ctx: Ctx): Promise<PlatformOverview> {
  requireOperator(ctx);
  const exec = readDb(ctx);
  const res = await exec.execute<PlatformOverview>(sql`
    select
      (select count(*) from ${organizations})::int as "organizations",
      (select count(*) from ${users})::int as "users",
      (select count(*) from ${regions})::int as "regions",
      (select count(*) from ${nodes})::int as "nodes",
      (select coalesce(sum(${nodes.gpuCount}), 0) from ${nodes})::int as "gpusTotal",
      (select count(distinct ${gpuAllocations.nodeGpuId}) from ${gpuAllocations}
        where ${gpuAllocations.releasedAt} is null)::int as "gpusAllocated",
      (select count(*) from ${outbox} where ${outbox.status} = 'pending')::int as "outboxPending",
      (select count(*) from ${outbox} where ${outbox.status} = 'failed')::int as "outboxFailed"
  `);
  const row = res.rows[0];
  if (!row) throw new Error("overview query returned no row");
  return row;
}

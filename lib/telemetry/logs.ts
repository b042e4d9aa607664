import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { requireOrgAccess } from "@/lib/access";
import { type Ctx, NotFoundError, nowOf, parseInput } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { attachConfiguredEngines, type Provider } from "@/lib/provisioning";
import { METRIC_STATES } from "./ingest";
import { defaultProvider } from "./provider";
import { loadProviderInstances } from "./provider-instances";
import { epochMs, UUID_RE } from "./sql-util";

export const instanceLogsQuerySchema = z.object({
  /** Only lines after this time (ISO 8601), for polling the tail. */
  since: z.coerce.date().optional(),
  limit: z.coerce.number().int().min(1).max(2000).default(200),
});
export type InstanceLogsQuery = z.input<typeof instanceLogsQuerySchema>;

export type InstanceLogLine = { at: string; stream: "stdout" | "stderr"; text: string };
export type InstanceLogs = {
  /** Oldest first; the last `limit` lines of the window. */
  lines: InstanceLogLine[];
  /** True while the workload runs (poll for more); false for the frozen logs of the last run. */
  live: boolean;
};

/**
 * Container (or Jupyter server) logs of the instance's current or last run, read from the provider. Tenant-
 * scoped: another organization's instance is NotFound. An instance that never ran has no lines.
 */
export async function instanceLogs(
  ctx: Ctx,
  orgSlug: string,
  instanceId: string,
  raw: InstanceLogsQuery & { now?: Date; provider?: Provider } = {},
): Promise<InstanceLogs> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const { since, limit } = parseInput(instanceLogsQuerySchema, raw);
  if (!UUID_RE.test(instanceId)) throw new NotFoundError("Instance");
  const exec = readDb(ctx);
  const [inst] = await loadProviderInstances(exec, sql`i.id = ${instanceId} and i.org_id = ${org.id}`);
  if (!inst) throw new NotFoundError("Instance");
  if (!inst.startedAt) return { lines: [], live: false };

  const live = (METRIC_STATES as readonly string[]).includes(inst.state);
  let to = raw.now ?? nowOf(ctx);
  if (!live) {
    // A stopped run keeps the logs it wrote until it stopped.
    const res = await exec.execute<{ ms: number | null }>(
      sql`select ${epochMs(sql`stopped_at`)} as ms from instances where id = ${instanceId}`,
    );
    const stoppedMs = res.rows[0]?.ms;
    if (stoppedMs != null && Number(stoppedMs) > inst.startedAt.getTime()) to = new Date(Number(stoppedMs));
  }
  // `since` is exclusive: the first line of a run (at startedAt) seen once must not come back on every poll.
  const from = since && since >= inst.startedAt ? since : new Date(inst.startedAt.getTime() - 1);
  await attachConfiguredEngines();
  const provider = raw.provider ?? defaultProvider(inst.regionCode);
  const got = provider.fetchLogs
    ? await provider.fetchLogs(inst, from, to, limit)
    : provider.logs(inst, from, to, limit);
  const lines = got.map((l) => ({ ...l, at: l.at.toISOString() }));
  return { lines, live };
}

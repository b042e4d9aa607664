import "server-only";
import { eq } from "drizzle-orm";
import { type Ctx, nowOf } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { meteringCursors } from "@/lib/db/schema";
import { costScopeOf } from "./access";
import { type Forecast, forecastOf } from "./forecast";
import { monthOf } from "./period";
import { type MonthInput, monthSchema } from "./schemas";
import { projectSpend } from "./spend-sql";

export type MonthToDate = Pick<Forecast, "period" | "actualUsd" | "meteredUsd" | "accruedUsd"> & {
  currency: "USD";
  /** The ledger is complete up to here; later usage is an estimate until the next metering pass. */
  meteredUntil: Date | null;
};

/**
 * Spend of the organization (or one project) in the current UTC month with a month-end forecast. Any member
 * role may read it. The forecast method is described in `method` (see FORECAST_METHOD).
 */
export async function forecastMonthEnd(
  ctx: Ctx,
  orgSlug: string,
  raw: Pick<MonthInput, "project"> = {},
): Promise<Forecast & { currency: "USD"; meteredUntil: Date | null }> {
  const { org, projectId } = await costScopeOf(ctx, orgSlug, monthSchema.pick({ project: true }), raw);
  const now = nowOf(ctx);
  const month = monthOf(now);
  const exec = readDb(ctx);
  const rows = await projectSpend(exec, { orgId: org.id }, { now, monthStart: month.start });
  const scoped = projectId ? rows.filter((r) => r.projectId === projectId) : rows;
  const [cursor] = await exec
    .select({ until: meteringCursors.meteredUntil })
    .from(meteringCursors)
    .where(eq(meteringCursors.orgId, org.id));
  return { ...forecastOf(scoped, month, now), currency: "USD", meteredUntil: cursor?.until ?? null };
}

export async function monthToDate(
  ctx: Ctx,
  orgSlug: string,
  raw: Pick<MonthInput, "project"> = {},
): Promise<MonthToDate> {
  const f = await forecastMonthEnd(ctx, orgSlug, raw);
  return {
    period: f.period,
    actualUsd: f.actualUsd,
    meteredUsd: f.meteredUsd,
    accruedUsd: f.accruedUsd,
    currency: "USD",
    meteredUntil: f.meteredUntil,
  };
}

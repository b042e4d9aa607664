import "server-only";
import { sql } from "drizzle-orm";
import { type Ctx, nowOf } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { costScope, costScopeOf } from "./access";
import { monthOf, parseMonth } from "./period";
import { type MonthInput, monthSchema } from "./schemas";

/** Telemetry samples every 10 s; a rollup's `samples` count says how many it averaged. */
const SAMPLE_SECONDS = 10;

export const ENERGY_FORMULA =
  "Estimate. Energy (kWh) = Σ measured GPU board power (5-minute averages × their sample time) ÷ 3,600,000 × " +
  "the region's PUE (facility overhead). Carbon (gCO₂e) = energy × the region's grid intensity (gCO₂/kWh). " +
  "CPU, memory and network power are not measured and not included.";

export type InstanceEnergy = {
  instanceId: string;
  name: string;
  regionCode: string;
  pue: number;
  gridGco2PerKwh: number;
  gpuKwh: number;
  facilityKwh: number;
  gco2: number;
};

export type MonthlyEnergy = {
  period: string;
  isEstimate: true;
  formula: string;
  totalKwh: number;
  totalGco2: number;
  instances: InstanceEnergy[];
};

/** Energy and carbon per instance for a month (default: the current one), from the 5-minute power rollups. */
export async function monthlyEnergy(ctx: Ctx, orgSlug: string, raw: MonthInput = {}): Promise<MonthlyEnergy> {
  const { org, projectId, input } = await costScopeOf(ctx, orgSlug, monthSchema, raw);
  const month = input.month ? parseMonth(input.month) : monthOf(nowOf(ctx));
  const res = await readDb(ctx).execute<{
    instance_id: string;
    name: string;
    region_code: string;
    pue: number;
    grid: number;
    kwh: number;
  }>(sql`
    select i.id as instance_id, i.name, i.region_code, rg.pue, rg.grid_gco2_per_kwh as grid,
      (sum(m.power_avg * m.samples) * ${SAMPLE_SECONDS} / 3600000.0)::float8 as kwh
    from metric_rollups_5m m
    join instances i on i.id = m.instance_id and i.org_id = ${org.id}
    join regions rg on rg.code = i.region_code
    where m.org_id = ${org.id} and m.bucket >= ${month.start} and m.bucket < ${month.end}
      ${projectId ? sql`and i.project_id = ${projectId}` : sql``}
    group by i.id, rg.code
    order by kwh desc, i.id`);
  const instances = res.rows.map((r) => {
    const gpuKwh = Number(r.kwh);
    const facilityKwh = gpuKwh * Number(r.pue);
    return {
      instanceId: r.instance_id,
      name: r.name,
      regionCode: r.region_code,
      pue: Number(r.pue),
      gridGco2PerKwh: Number(r.grid),
      gpuKwh,
      facilityKwh,
      gco2: facilityKwh * Number(r.grid),
    };
  });
  return {
    period: month.period,
    isEstimate: true,
    formula: ENERGY_FORMULA,
    totalKwh: instances.reduce((s, i) => s + i.facilityKwh, 0),
    totalGco2: instances.reduce((s, i) => s + i.gco2, 0),
    instances,
  };
}

export type EnergyMonth = { period: string; facilityKwh: number; gco2: number };

/** Facility energy and carbon per UTC month for the last `months` months (oldest first), from the rollups. */
export async function energyByMonth(
  ctx: Ctx,
  orgSlug: string,
  opts: { months?: number } = {},
): Promise<{ isEstimate: true; formula: string; months: EnergyMonth[] }> {
  const { org } = await costScope(ctx, orgSlug, null);
  const months = Math.min(Math.max(1, Math.trunc(opts.months ?? 12)), 36);
  const current = monthOf(nowOf(ctx));
  const from = new Date(
    Date.UTC(current.start.getUTCFullYear(), current.start.getUTCMonth() - (months - 1), 1),
  );
  const res = await readDb(ctx).execute<{ period: string; kwh: number; gco2: number }>(sql`
    select to_char(date_trunc('month', m.bucket at time zone 'UTC'), 'YYYY-MM') as period,
      (sum(m.power_avg * m.samples * rg.pue) * ${SAMPLE_SECONDS} / 3600000.0)::float8 as kwh,
      (sum(m.power_avg * m.samples * rg.pue * rg.grid_gco2_per_kwh) * ${SAMPLE_SECONDS} / 3600000.0)::float8 as gco2
    from metric_rollups_5m m
    join instances i on i.id = m.instance_id and i.org_id = ${org.id}
    join regions rg on rg.code = i.region_code
    where m.org_id = ${org.id} and m.bucket >= ${from} and m.bucket < ${current.end}
    group by 1
    order by 1`);
  const byPeriod = new Map(res.rows.map((r) => [r.period, r]));
  const out: EnergyMonth[] = [];
  for (let i = 0; i < months; i++) {
    const p = monthOf(new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + i, 1))).period;
    const r = byPeriod.get(p);
    out.push({ period: p, facilityKwh: Number(r?.kwh ?? 0), gco2: Number(r?.gco2 ?? 0) });
  }
  return { isEstimate: true, formula: ENERGY_FORMULA, months: out };
}

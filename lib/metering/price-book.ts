import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";

export type PricingModel = "on_demand" | "spot" | "reserved_1m" | "reserved_1y";

type Row = { model: PricingModel; usdPerHour: number; from: number; to: number | null };

/**
 * The prices of a set of instance types × regions, loaded once per metering pass. Lookups follow the same
 * effective dating as the catalog's priceAt (the latest row whose [from, to) holds the instant); metering
 * prices thousands of segments per pass, so it reads the rows once instead of one query per segment.
 */
export class PriceBook {
  private constructor(private readonly rows: Map<string, Row[]>) {}

  static async load(exec: Executor, pairs: Array<{ typeId: string; region: string }>): Promise<PriceBook> {
    const map = new Map<string, Row[]>();
    if (pairs.length === 0) return new PriceBook(map);
    const res = await exec.execute<{
      instance_type_id: string;
      region_code: string;
      pricing_model: PricingModel;
      usd_per_hour: string;
      effective_from: Date | string;
      effective_to: Date | string | null;
    }>(sql`
      select p.instance_type_id, p.region_code, p.pricing_model, p.usd_per_hour, p.effective_from, p.effective_to
      from prices p
      join jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as k("typeId" text, region text)
        on k."typeId" = p.instance_type_id and k.region = p.region_code
      order by p.effective_from desc`);
    for (const r of res.rows) {
      const key = `${r.instance_type_id}|${r.region_code}`;
      const list = map.get(key) ?? [];
      list.push({
        model: r.pricing_model,
        usdPerHour: Number(r.usd_per_hour),
        from: new Date(r.effective_from).getTime(),
        to: r.effective_to === null ? null : new Date(r.effective_to).getTime(),
      });
      map.set(key, list);
    }
    return new PriceBook(map);
  }

  /** USD per hour at instant t, or null when the type was not on sale then. */
  at(typeId: string, region: string, model: PricingModel, t: number): number | null {
    for (const r of this.rows.get(`${typeId}|${region}`) ?? []) {
      if (r.model === model && r.from <= t && (r.to === null || r.to > t)) return r.usdPerHour;
    }
    return null;
  }

  /** Every instant at which some price of this type × region starts or stops (segment cut points). */
  changePoints(typeId: string, region: string): number[] {
    const points = new Set<number>();
    for (const r of this.rows.get(`${typeId}|${region}`) ?? []) {
      points.add(r.from);
      if (r.to !== null) points.add(r.to);
    }
    return [...points].sort((a, b) => a - b);
  }
}

import "server-only";
import { and, desc, eq, gt, isNull, lte, or } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { prices } from "@/lib/db/schema";
import type { PricingModel } from "./schemas";

export type PriceInForce = {
  priceId: string;
  usdPerHour: number;
  effectiveFrom: Date;
  /** Exclusive; null = still in force. */
  effectiveTo: Date | null;
};

/**
 * The price of an instance type in a region for a pricing model at a given time, or null when it was not
 * on sale then. Metering prices usage with it, so a price change never rewrites past usage.
 */
export async function priceAt(
  instanceTypeId: string,
  regionCode: string,
  pricingModel: PricingModel,
  at: Date,
  exec: Executor = getDb(),
): Promise<PriceInForce | null> {
  const [row] = await exec
    .select()
    .from(prices)
    .where(
      and(
        eq(prices.instanceTypeId, instanceTypeId),
        eq(prices.regionCode, regionCode),
        eq(prices.pricingModel, pricingModel),
        lte(prices.effectiveFrom, at),
        or(isNull(prices.effectiveTo), gt(prices.effectiveTo, at)),
      ),
    )
    // Should rows ever overlap, the most recently started one wins.
    .orderBy(desc(prices.effectiveFrom))
    .limit(1);
  if (!row) return null;
  return {
    priceId: row.id,
    usdPerHour: Number(row.usdPerHour),
    effectiveFrom: row.effectiveFrom,
    effectiveTo: row.effectiveTo,
  };
}

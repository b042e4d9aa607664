import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { requireOperator } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import {
  ConflictError,
  type Ctx,
  fieldMessages,
  InvalidStateError,
  NotFoundError,
  nowOf,
  parseInput,
  ValidationError,
} from "@/lib/core";
import { type Tx, withTx } from "@/lib/db/client";
import { instanceTypes, prices, regions } from "@/lib/db/schema";
import { PRICING_MODELS, type PricingModel } from "./schemas";

/**
 * Field messages of the operator's price form (messages/<locale>/operator.json, namespace PriceFieldErrors): the
 * English text is the API's problem detail, the key is what the form shows.
 */
export const PRICE_FIELD_MESSAGES = fieldMessages("PriceFieldErrors", {
  instanceTypeRequired: "Choose an instance type",
  instanceTypeUnknown: "There is no such instance type",
  regionRequired: "Choose a region",
  regionUnknown: "There is no such region",
  pricingModelInvalid: "Choose on-demand, spot, 1-month reserved or 1-year reserved",
  priceInvalid: "Enter a price in USD per hour from 0.0001 to 100000",
  effectiveFromInvalid: "Enter a date and time (UTC)",
  effectiveFromPast: "Choose a time in the future: a price change never applies to the past",
});
const M = PRICE_FIELD_MESSAGES;

/**
 * A scheduled price change: the instance type's price in a region for one pricing model from a future instant
 * on. datetime-local's "YYYY-MM-DDTHH:mm" (no zone) is read as UTC, as the form says.
 */
export const schedulePriceSchema = z.object({
  instanceTypeId: z
    .string({ error: M.instanceTypeRequired })
    .trim()
    .min(1, { error: M.instanceTypeRequired })
    .max(100, { error: M.instanceTypeUnknown }),
  regionCode: z
    .string({ error: M.regionRequired })
    .trim()
    .min(1, { error: M.regionRequired })
    .max(100, { error: M.regionUnknown }),
  pricingModel: z.enum(PRICING_MODELS, { error: M.pricingModelInvalid }),
  usdPerHour: z.coerce
    .number({ error: M.priceInvalid })
    .min(0.0001, { error: M.priceInvalid })
    .max(100_000, { error: M.priceInvalid })
    .meta({ description: "USD per hour for the whole instance", example: 3.49 }),
  effectiveFrom: z.preprocess(
    (v) =>
      typeof v === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/.test(v.trim()) ? `${v.trim()}Z` : v,
    z.coerce
      .date({ error: M.effectiveFromInvalid })
      .meta({ description: "When the price takes effect (ISO 8601; a time without a zone is UTC)" }),
  ),
});
export type SchedulePriceInput = z.input<typeof schedulePriceSchema>;

export type ScheduledPrice = {
  id: string;
  instanceTypeId: string;
  regionCode: string;
  pricingModel: PricingModel;
  usdPerHour: number;
  effectiveFrom: Date;
  effectiveTo: Date | null;
};

type PriceKey = Pick<ScheduledPrice, "instanceTypeId" | "regionCode" | "pricingModel">;

/**
 * One writer per price key at a time: the neighbours' effective_to are read and rewritten, so two operators
 * scheduling the same key at once must not both see the same chain.
 */
async function lockKey(tx: Tx, k: PriceKey): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`price:${k.instanceTypeId}|${k.regionCode}|${k.pricingModel}`}))`,
  );
}

const sameKey = (k: PriceKey) =>
  and(
    eq(prices.instanceTypeId, k.instanceTypeId),
    eq(prices.regionCode, k.regionCode),
    eq(prices.pricingModel, k.pricingModel),
  );

const toScheduled = (r: typeof prices.$inferSelect): ScheduledPrice => ({
  id: r.id,
  instanceTypeId: r.instanceTypeId,
  regionCode: r.regionCode,
  pricingModel: r.pricingModel,
  usdPerHour: Number(r.usdPerHour),
  effectiveFrom: r.effectiveFrom,
  effectiveTo: r.effectiveTo,
});

/**
 * Operator: schedule a price from a future instant. Prices stay one table of non-overlapping [from, to) rows
 * per key, the one source the catalog, launch and metering read at their instant: the row in force at `from`
 * is cut there (its end becomes the new row's end), or, where nothing is on sale then, the new row runs until
 * the next scheduled one. Nothing already in force changes before `from`, so no past usage is re-priced.
 */
export async function schedulePriceChange(ctx: Ctx, raw: unknown): Promise<ScheduledPrice> {
  requireOperator(ctx);
  const input = parseInput(schedulePriceSchema, raw);
  const now = nowOf(ctx);
  if (input.effectiveFrom.getTime() <= now.getTime()) {
    throw ValidationError.field("effectiveFrom", M.effectiveFromPast);
  }
  return withTx(ctx.tx, async (tx) => {
    const [type] = await tx
      .select({ id: instanceTypes.id })
      .from(instanceTypes)
      .where(eq(instanceTypes.id, input.instanceTypeId));
    if (!type) throw ValidationError.field("instanceTypeId", M.instanceTypeUnknown);
    const [region] = await tx
      .select({ code: regions.code })
      .from(regions)
      .where(eq(regions.code, input.regionCode));
    if (!region) throw ValidationError.field("regionCode", M.regionUnknown);
    await lockKey(tx, input);
    const from = input.effectiveFrom;
    const [taken] = await tx
      .select({ id: prices.id })
      .from(prices)
      .where(and(sameKey(input), eq(prices.effectiveFrom, from)));
    if (taken) {
      throw new ConflictError("A price change is already scheduled at this time", {
        reason: "price_change_taken",
      });
    }
    const [inForce] = await tx
      .select()
      .from(prices)
      .where(
        and(
          sameKey(input),
          sql`${prices.effectiveFrom} < ${from}`,
          sql`(${prices.effectiveTo} is null or ${prices.effectiveTo} > ${from})`,
        ),
      )
      .orderBy(sql`${prices.effectiveFrom} desc`)
      .limit(1);
    let to: Date | null;
    if (inForce) {
      to = inForce.effectiveTo;
      await tx.update(prices).set({ effectiveTo: from }).where(eq(prices.id, inForce.id));
    } else {
      const [next] = await tx
        .select({ from: prices.effectiveFrom })
        .from(prices)
        .where(and(sameKey(input), sql`${prices.effectiveFrom} > ${from}`))
        .orderBy(prices.effectiveFrom)
        .limit(1);
      to = next?.from ?? null;
    }
    const [row] = await tx
      .insert(prices)
      .values({
        instanceTypeId: input.instanceTypeId,
        regionCode: input.regionCode,
        pricingModel: input.pricingModel,
        usdPerHour: input.usdPerHour.toFixed(4),
        effectiveFrom: from,
        effectiveTo: to,
      })
      .returning();
    if (!row) throw new Error("price insert returned nothing");
    await writeAudit(tx, ctx.actor, {
      orgId: null,
      action: "price.scheduled",
      targetType: "price",
      targetId: row.id,
      data: {
        instanceType: input.instanceTypeId,
        region: input.regionCode,
        pricingModel: input.pricingModel,
        usdPerHour: Number(row.usdPerHour),
        effectiveFrom: from.toISOString(),
        previousUsdPerHour: inForce ? Number(inForce.usdPerHour) : null,
      },
      at: now,
    });
    return toScheduled(row);
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Operator: cancel a price change that has not taken effect. The row before it gets back its end (the
 * cancelled row's), so the chain has no gap where there was none; a price already in force (or past) is
 * history that usage was billed at, so it cannot be cancelled (InvalidState, nothing written).
 */
export async function cancelPriceChange(ctx: Ctx, priceId: string): Promise<ScheduledPrice> {
  requireOperator(ctx);
  const now = nowOf(ctx);
  if (!UUID.test(priceId)) throw new NotFoundError("No such price");
  return withTx(ctx.tx, async (tx) => {
    const [found] = await tx.select().from(prices).where(eq(prices.id, priceId));
    if (!found) throw new NotFoundError("No such price");
    await lockKey(tx, found);
    const [row] = await tx.select().from(prices).where(eq(prices.id, priceId));
    if (!row) throw new NotFoundError("No such price");
    if (row.effectiveFrom.getTime() <= now.getTime()) {
      throw new InvalidStateError("This price is already in force; schedule a new change instead", {
        reason: "price_in_force",
      });
    }
    await tx.delete(prices).where(eq(prices.id, row.id));
    const [before] = await tx
      .update(prices)
      .set({ effectiveTo: row.effectiveTo })
      .where(and(sameKey(row), eq(prices.effectiveTo, row.effectiveFrom)))
      .returning();
    await writeAudit(tx, ctx.actor, {
      orgId: null,
      action: "price.cancelled",
      targetType: "price",
      targetId: row.id,
      data: {
        instanceType: row.instanceTypeId,
        region: row.regionCode,
        pricingModel: row.pricingModel,
        usdPerHour: Number(row.usdPerHour),
        effectiveFrom: row.effectiveFrom.toISOString(),
        restoredUsdPerHour: before ? Number(before.usdPerHour) : null,
      },
      at: now,
    });
    return toScheduled(row);
  });
}

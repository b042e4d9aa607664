import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { priceAt } from "@/lib/catalog";
import { ConflictError, type Ctx, fieldMessageWith, nowOf, parseInput, ValidationError } from "@/lib/core";
import { type Executor, inTx, readDb } from "@/lib/db/client";
import { gpuModels, regions, reservations } from "@/lib/db/schema";
import { COST_FIELD_MESSAGES as M } from "./field-messages";
import { reservationRate, unitInstanceType } from "./reservation-rate";
import { type ReservationInput, reservationSchema } from "./schemas";

export type ReservationQuote = {
  gpuModelId: string;
  regionCode: string;
  gpuCount: number;
  term: "reserved_1m" | "reserved_1y";
  startsAt: Date;
  endsAt: Date;
  hours: number;
  usdPerGpuHour: number;
  onDemandUsdPerGpuHour: number | null;
  /** The whole commitment: paid whether the GPUs are used or not. */
  totalUsd: number;
  savingsPct: number | null;
};

function termEnd(start: Date, term: "reserved_1m" | "reserved_1y"): Date {
  const end = new Date(start);
  if (term === "reserved_1m") end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  return end;
}

async function quote(
  exec: Executor,
  org: { allowedJurisdictions: string[] },
  input: ReturnType<typeof reservationSchema.parse>,
  now: Date,
): Promise<ReservationQuote> {
  const [model] = await exec.select().from(gpuModels).where(eq(gpuModels.id, input.gpuModelId));
  if (!model) throw ValidationError.field("gpuModelId", M.modelUnknown);
  const [region] = await exec.select().from(regions).where(eq(regions.code, input.regionCode));
  if (!region?.active) throw ValidationError.field("regionCode", M.regionUnknown);
  if (org.allowedJurisdictions.length > 0 && !org.allowedJurisdictions.includes(region.jurisdiction)) {
    throw ValidationError.field(
      "regionCode",
      fieldMessageWith(M.residency, { jurisdictions: org.allowedJurisdictions.join(", ") }),
    );
  }
  const startsAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const rate = await reservationRate(exec, { ...input, at: startsAt });
  if (rate === null) {
    throw ValidationError.field(
      "term",
      fieldMessageWith(M.termNotOffered, { model: model.name, region: region.code }),
    );
  }
  const typeId = await unitInstanceType(exec, input.gpuModelId);
  const od = typeId ? await priceAt(typeId, input.regionCode, "on_demand", startsAt, exec) : null;
  const endsAt = termEnd(startsAt, input.term);
  const hours = (endsAt.getTime() - startsAt.getTime()) / 3_600_000;
  return {
    gpuModelId: input.gpuModelId,
    regionCode: input.regionCode,
    gpuCount: input.gpuCount,
    term: input.term,
    startsAt,
    endsAt,
    hours,
    usdPerGpuHour: rate,
    onDemandUsdPerGpuHour: od?.usdPerHour ?? null,
    totalUsd: Math.round(rate * input.gpuCount * hours * 100) / 100,
    savingsPct: od ? Math.round((1 - rate / od.usdPerHour) * 1000) / 10 : null,
  };
}

/**
 * The price of a reservation if bought now, from the catalog's term prices. Any role may ask, viewers too (as
 * docs/api.md says): a quote writes nothing and shows only catalog prices a viewer already sees.
 */
export async function quoteReservation(
  ctx: Ctx,
  orgSlug: string,
  raw: ReservationInput,
): Promise<ReservationQuote> {
  // Authorize before validating, so a stranger's bad body is a 404, not a field list.
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const input = parseInput(reservationSchema, raw);
  return quote(readDb(ctx), org, input, nowOf(ctx));
}

/**
 * Buy a reservation (admins and owners): a commitment for GPU model × region × GPUs over the term, starting
 * now, at the quoted rate. Metering bills it every hour, covering matching usage first.
 */
export async function purchaseReservation(ctx: Ctx, orgSlug: string, raw: ReservationInput) {
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const { org, userId } = await requireOrgAccess(c, orgSlug, "admin");
    const input = parseInput(reservationSchema, raw);
    const key = input.idempotencyKey ?? null;
    if (key) {
      // Two retries at once: the second waits here, then finds the first one's row.
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext('forja:reservation-key'), hashtext(${`${org.id}/${key}`}))`,
      );
      const [prior] = await tx
        .select()
        .from(reservations)
        .where(and(eq(reservations.orgId, org.id), eq(reservations.idempotencyKey, key)));
      if (prior) {
        const same =
          prior.gpuModelId === input.gpuModelId &&
          prior.regionCode === input.regionCode &&
          prior.gpuCount === input.gpuCount &&
          prior.term === input.term;
        if (!same) {
          throw new ConflictError(
            "This idempotency key was already used for a different reservation; use a new key for a new purchase",
            { reservationId: prior.id },
          );
        }
        return { reservation: prior, quote: await quote(tx, org, input, prior.startsAt), replayed: true };
      }
    }
    const q = await quote(tx, org, input, nowOf(ctx));
    const [row] = await tx
      .insert(reservations)
      .values({
        orgId: org.id,
        gpuModelId: q.gpuModelId,
        regionCode: q.regionCode,
        gpuCount: q.gpuCount,
        term: q.term,
        startsAt: q.startsAt,
        endsAt: q.endsAt,
        createdBy: userId,
        createdAt: nowOf(ctx),
        idempotencyKey: key,
      })
      .returning();
    if (!row) throw new Error("reservation insert returned nothing");
    await writeAudit(tx, c.actor, {
      orgId: org.id,
      action: "reservation.purchased",
      targetType: "reservation",
      targetId: row.id,
      data: {
        gpuModelId: q.gpuModelId,
        regionCode: q.regionCode,
        gpuCount: q.gpuCount,
        term: q.term,
        usdPerGpuHour: q.usdPerGpuHour,
        totalUsd: q.totalUsd,
      },
      at: nowOf(ctx),
    });
    return { reservation: row, quote: q, replayed: false };
  });
}

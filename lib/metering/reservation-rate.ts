import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { priceAt } from "@/lib/catalog";
import type { Executor } from "@/lib/db/client";
import { instanceTypes } from "@/lib/db/schema";

/** The whole-GPU, single-GPU instance type of a model: reservations are priced per GPU from it. */
export async function unitInstanceType(exec: Executor, gpuModelId: string): Promise<string | null> {
  const [row] = await exec
    .select({ id: instanceTypes.id })
    .from(instanceTypes)
    .where(
      and(
        eq(instanceTypes.gpuModelId, gpuModelId),
        eq(instanceTypes.gpuCount, 1),
        isNull(instanceTypes.migProfile),
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

/**
 * USD per GPU-hour of a reservation term for a model in a region at an instant (the catalog's price of the
 * single-GPU type for that term), or null when that term is not on sale there.
 */
export async function reservationRate(
  exec: Executor,
  input: { gpuModelId: string; regionCode: string; term: "reserved_1m" | "reserved_1y"; at: Date },
): Promise<number | null> {
  const typeId = await unitInstanceType(exec, input.gpuModelId);
  if (!typeId) return null;
  const price = await priceAt(typeId, input.regionCode, input.term, input.at, exec);
  return price?.usdPerHour ?? null;
}

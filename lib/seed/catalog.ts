import "server-only";
import type { Tx } from "@/lib/db/client";

/** Placeholder until the catalog seed lands: regions, GPU models, instance types, prices and nodes. */
export async function seedCatalog(_tx: Tx): Promise<void> {}

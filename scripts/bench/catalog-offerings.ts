import { sql } from "drizzle-orm";
import { signUp } from "@/lib/auth";
import { insertSynthetic, listOfferings, syntheticPlan } from "@/lib/catalog";
import { getDb } from "@/lib/db/client";
import { ensureCatalogSeeded } from "@/lib/seed";
import type { Benchmark } from "./types";

/**
 * listOfferings (filters + sort + page + live availability) against a bare count of the same price rows; the
 * "before" variants recount availability from every GPU per request, as the catalog did before node_capacity.
 */
export const catalogOfferings: Benchmark = {
  name: "catalog-offerings",
  description: "listOfferings over 2,000+ offerings vs. select count(*) of the same rows",
  async setup() {
    await ensureCatalogSeeded();
    const plan = syntheticPlan({ regions: 12, models: 6, typesPerModel: 30, nodesPerRegionModel: 2 });
    await insertSynthetic(getDb(), plan, new Date(Date.now() - 86_400_000));
    const { user, org } = await signUp(
      {},
      {
        name: "Bench",
        email: `bench-${plan.prefix}@example.test`,
        password: "bench bench bench",
        organizationName: "Bench",
      },
    );
    const ctx = { actor: { kind: "user" as const, userId: user.id, email: user.email, isOperator: false } };
    const gpu = plan.models.map((m) => m.id);
    const filtered = { gpu, jurisdiction: ["EU"], minMemoryGib: 48, maxPrice: 20, available: true as const };
    const first = await listOfferings(ctx, org.slug, { gpu, pageSize: 20 });
    const db = getDb();
    return {
      baseline: "count(*) of current prices",
      notes: [`${first.total} synthetic offerings (+ the demo catalog) on ${plan.regionRows.length} regions`],
      variants: [
        {
          name: "count(*) of current prices",
          run: () =>
            db.execute(sql`select count(*) from prices p join instance_types it on it.id = p.instance_type_id
              where it.gpu_model_id = any(${sql.param(gpu)}::text[]) and p.effective_from <= now()
              and (p.effective_to is null or p.effective_to > now())`),
        },
        {
          name: "listOfferings, no filter, page 1",
          run: () => listOfferings(ctx, org.slug, { gpu, pageSize: 20 }),
        },
        {
          name: "before: no filter, availability recounted",
          run: () => listOfferings(ctx, org.slug, { gpu, pageSize: 20 }, { capacity: "recounted" }),
        },
        {
          name: "listOfferings, 5 filters, per-GPU sort",
          run: () => listOfferings(ctx, org.slug, { ...filtered, sort: "per_gpu_asc", pageSize: 20 }),
        },
        {
          name: "before: 5 filters, availability recounted",
          run: () =>
            listOfferings(
              ctx,
              org.slug,
              { ...filtered, sort: "per_gpu_asc", pageSize: 20 },
              { capacity: "recounted" },
            ),
        },
        {
          name: "listOfferings, deep page (page 50)",
          run: () => listOfferings(ctx, org.slug, { gpu, pageSize: 20, page: 50 }),
        },
      ],
    };
  },
};

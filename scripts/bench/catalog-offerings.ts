import { sql } from "drizzle-orm";
import { signUp } from "@/lib/auth";
import {
  type CatalogFilterInput,
  insertSynthetic,
  listOfferings,
  listOfferingsReference,
  syntheticPlan,
} from "@/lib/catalog";
import { getDb } from "@/lib/db/client";
import { ensureCatalogSeeded } from "@/lib/seed";
import type { Benchmark } from "./types";

/**
 * listOfferings (filters + sort + page + live availability) against a bare count of the same price rows, for
 * each filter alone and combined; "before" runs the previous one-statement query (every offering built wide,
 * then sorted), with availability from node_capacity or recounted from every GPU (before drizzle 0019).
 * Targets (issue 13): page 1 ≤ ×10 the count, every filter combination ≤ 15 ms p95.
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
        ...(
          [
            ["no filter, page 1", {}],
            ["region", { region: [plan.regionRows[0]?.code ?? ""] }],
            ["jurisdiction EU", { jurisdiction: ["EU"] }],
            ["GPU model", { gpu: [gpu[0] ?? ""] }],
            ["min memory 48 GiB", { minMemoryGib: 48 }],
            ["4 GPUs", { gpuCount: "4" }],
            ["max price 20", { maxPrice: 20 }],
            ["available only", { available: true }],
            ["sort by availability", { sort: "available_desc" }],
            ["sort by CO2e", { sort: "co2_asc" }],
            ["5 filters, per-GPU sort", { ...filtered, sort: "per_gpu_asc" }],
            [
              "every filter, GPU sort",
              { ...filtered, region: plan.regionRows.map((r) => r.code), gpuCount: "8", sort: "gpu_desc" },
            ],
            ["deep page (page 50)", { page: 50 }],
          ] as [string, CatalogFilterInput][]
        ).map(([name, f]) => ({
          name: `listOfferings, ${name}`,
          run: () => listOfferings(ctx, org.slug, { gpu, pageSize: 20, ...f }),
        })),
        {
          name: "before: no filter, page 1",
          run: () => listOfferingsReference(ctx, org.slug, { gpu, pageSize: 20 }),
        },
        {
          name: "before: no filter, availability recounted",
          run: () => listOfferingsReference(ctx, org.slug, { gpu, pageSize: 20 }, "recounted"),
        },
        {
          name: "before: 5 filters, per-GPU sort",
          run: () =>
            listOfferingsReference(ctx, org.slug, { ...filtered, sort: "per_gpu_asc", pageSize: 20 }),
        },
      ],
    };
  },
};

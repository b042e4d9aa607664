import { sql } from "drizzle-orm";
import { signUp } from "@/lib/auth";
import {
  CATALOG_SORTS,
  type CatalogFilterInput,
  GPU_COUNT_OPTIONS,
  insertSynthetic,
  listOfferings,
  listOfferingsReference,
  PRICING_MODELS,
  syntheticPlan,
} from "@/lib/catalog";
import { getDb } from "@/lib/db/client";
import { ensureCatalogSeeded } from "@/lib/seed";
import { offeringsPage1359a10 } from "./catalog-query-1359a10";
import { offeringsPageB39ce78 } from "./catalog-query-b39ce78";
import type { Benchmark, Variant } from "./types";

/** The tables the catalog statements read; autovacuum is held off them while the fresh phase runs. */
const CATALOG_TABLES = [
  "prices",
  "instance_types",
  "gpu_models",
  "regions",
  "node_capacity",
  "offering_summaries",
];

/**
 * listOfferings (filters + sort + page + live availability) against a bare count of the same price rows, for
 * every filter the catalog page offers alone (each GPU count, pricing model and sort order), the common
 * combinations and page sizes, in two phases on the same data: first on the freshly inserted tables, which
 * have no statistics (autovacuum held off), then after ANALYZE — what a real database's autovacuum does to a
 * freshly loaded catalog within about a minute (autovacuum_naptime). Both phases are printed, each divided by
 * its own count. "before" runs the older one-statement query (every offering built wide, then sorted), with
 * availability from node_capacity or recounted from every GPU (before drizzle 0019), on the fresh tables;
 * "previous (b39ce78)" the statement listOfferings ran before offering_summaries (drizzle 0028: the prices in
 * force aggregated per request), in both phases, for a few cases; "previous (1359a10)" the one it ran before
 * offering_summaries.available (drizzle 0031: availability summed per request from node_capacity), in both
 * phases, for every case that filters or sorts by availability (and the first, which does not), as many runs.
 * Targets (issue 13): page 1 ≤ ×10 the count, every filter combination ≤ 15 ms p95.
 */
export const catalogOfferings: Benchmark = {
  name: "catalog-offerings",
  description: "listOfferings over 2,000+ offerings vs. select count(*) of the same rows, fresh and analyzed",
  async setup() {
    const db = getDb();
    await ensureCatalogSeeded();
    for (const t of CATALOG_TABLES)
      await db.execute(sql.raw(`alter table ${t} set (autovacuum_enabled = false)`));
    const plan = syntheticPlan({ regions: 12, models: 6, typesPerModel: 30, nodesPerRegionModel: 2 });
    const from = new Date(Date.now() - 86_400_000);
    await insertSynthetic(db, plan, from);
    // Other pricing models beside on-demand, as a real price list has: spot for every offering, a 1-year
    // reservation for every other type, so the pricing filter has rows to find and rows to skip.
    await db.execute(sql`insert into prices (instance_type_id, region_code, pricing_model, usd_per_hour,
        effective_from)
      select instance_type_id, region_code, m.model::pricing_model, round(usd_per_hour * m.f, 4), ${from}
      from prices p cross join (values ('spot', 0.4), ('reserved_1y', 0.7)) m(model, f)
      where p.pricing_model = 'on_demand' and p.region_code like ${`${plan.prefix}-%`}
        and (m.model = 'spot' or right(p.instance_type_id, 1) in ('0', '2', '4', '6', '8'))`);
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
    const regions = plan.regionRows.map((r) => r.code);
    const filtered = { gpu, jurisdiction: ["EU"], minMemoryGib: 48, maxPrice: 20, available: true as const };
    const cases: [string, CatalogFilterInput][] = [
      ["no filter, page 1", {}],
      ["region (1)", { region: [regions[0] ?? ""] }],
      ["regions (3)", { region: regions.slice(0, 3) }],
      ["jurisdiction EU", { jurisdiction: ["EU"] }],
      ["GPU model (1)", { gpu: [gpu[0] ?? ""] }],
      ["GPU models (2)", { gpu: gpu.slice(0, 2) }],
      ["min memory 48 GiB", { minMemoryGib: 48 }],
      ...GPU_COUNT_OPTIONS.map((c): [string, CatalogFilterInput] => [`GPU count ${c}`, { gpuCount: c }]),
      ...PRICING_MODELS.filter((m) => m !== "on_demand").map((m): [string, CatalogFilterInput] => [
        `pricing ${m}`,
        { pricing: m },
      ]),
      ["max price 20", { maxPrice: 20 }],
      ["available only", { available: true }],
      ...CATALOG_SORTS.filter((s) => s !== "price_asc").map((s): [string, CatalogFilterInput] => [
        `sort ${s}`,
        { sort: s },
      ]),
      ["page size 100", { pageSize: 100 }],
      ["deep page (page 50)", { page: 50 }],
      ["past the end (page 999)", { page: 999 }],
      ["EU, 8 GPUs, available", { jurisdiction: ["EU"], gpuCount: "8", available: true }],
      ["GPU model, region, spot", { gpu: [gpu[1] ?? ""], region: [regions[1] ?? ""], pricing: "spot" }],
      ["min memory, max price, per-GPU sort", { minMemoryGib: 48, maxPrice: 20, sort: "per_gpu_asc" }],
      ["available, sort by availability", { available: true, sort: "available_desc" }],
      ["5 filters, per-GPU sort", { ...filtered, sort: "per_gpu_asc" }],
      ["every filter, GPU sort", { ...filtered, region: regions, gpuCount: "8", sort: "gpu_desc" }],
      ["every filter, reserved_1y, CO2e sort", { ...filtered, pricing: "reserved_1y", sort: "co2_asc" }],
    ];
    const count = (phase: string, before?: () => Promise<unknown>): Variant => ({
      name: `${phase}: count(*) of current prices`,
      before,
      run: () =>
        db.execute(sql`select count(*) from prices p join instance_types it on it.id = p.instance_type_id
          where it.gpu_model_id = any(${sql.param(gpu)}::text[]) and p.pricing_model = 'on_demand'
          and p.effective_from <= now() and (p.effective_to is null or p.effective_to > now())`),
    });
    const phase = (name: string): Variant[] =>
      cases.map(([label, f]) => ({
        name: `${name}: ${label}`,
        against: `${name}: count(*) of current prices`,
        run: () => listOfferings(ctx, org.slug, { gpu, pageSize: 20, ...f }),
      }));
    const previousCases: [string, CatalogFilterInput][] = [
      ["no filter, page 1", {}],
      ["sort per_gpu_desc", { sort: "per_gpu_desc" }],
      ["pricing spot", { pricing: "spot" }],
      ["5 filters, per-GPU sort", { ...filtered, sort: "per_gpu_asc" }],
    ];
    const previous = (name: string): Variant[] =>
      previousCases.map(([label, f]) => ({
        name: `${name}, previous (b39ce78): ${label}`,
        runs: 20,
        against: `${name}: ${label}`,
        run: () => offeringsPageB39ce78(ctx, org.slug, { gpu, pageSize: 20, ...f }),
      }));
    // The cases that read availability (and one that does not), against the statement before
    // offering_summaries.available (drizzle 0031: availability summed per request from node_capacity).
    const availabilityCases = cases.filter(
      ([, f]) => f.available || f.sort?.startsWith("available") || f === cases[0]?.[1],
    );
    const at1359a10 = (name: string): Variant[] =>
      availabilityCases.map(([label, f]) => ({
        name: `${name}, previous (1359a10): ${label}`,
        against: `${name}: ${label}`,
        run: () => offeringsPage1359a10(ctx, org.slug, { gpu, pageSize: 20, ...f }),
      }));
    const stats = async () => {
      const { rows } = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_stats where tablename = any(${sql.param(CATALOG_TABLES)}::text[])`,
      );
      return rows[0]?.n ?? 0;
    };
    const fresh = await stats();
    const first = await listOfferings(ctx, org.slug, { gpu, pageSize: 20 });
    return {
      notes: [
        `${first.total} synthetic on-demand offerings (+ spot, reserved_1y and the demo catalog) on ${regions.length} regions`,
        `fresh: ${fresh} pg_stats rows on ${CATALOG_TABLES.join(", ")} (autovacuum off on them); analyzed: ANALYZE, as`,
        "autovacuum does within a minute of a load (autovacuum_naptime 1 min), then the same cases",
      ],
      variants: [
        count("fresh"),
        ...phase("fresh"),
        {
          name: "fresh, before: no filter, page 1",
          runs: 10,
          against: "fresh: count(*) of current prices",
          run: () => listOfferingsReference(ctx, org.slug, { gpu, pageSize: 20 }),
        },
        {
          name: "fresh, before: no filter, availability recounted",
          runs: 10,
          against: "fresh: count(*) of current prices",
          run: () => listOfferingsReference(ctx, org.slug, { gpu, pageSize: 20 }, "recounted"),
        },
        {
          name: "fresh, before: 5 filters, per-GPU sort",
          runs: 10,
          against: "fresh: count(*) of current prices",
          run: () =>
            listOfferingsReference(ctx, org.slug, { ...filtered, sort: "per_gpu_asc", pageSize: 20 }),
        },
        ...previous("fresh"),
        ...at1359a10("fresh"),
        count("analyzed", async () => {
          for (const t of CATALOG_TABLES) {
            await db.execute(sql.raw(`alter table ${t} reset (autovacuum_enabled)`));
            await db.execute(sql.raw(`analyze ${t}`));
          }
          console.log(`   (analyzed: ${await stats()} pg_stats rows after ANALYZE; were ${fresh})`);
        }),
        ...phase("analyzed"),
        ...previous("analyzed"),
        ...at1359a10("analyzed"),
      ],
    };
  },
};

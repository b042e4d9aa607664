import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type CatalogFilterInput,
  catalogFiltersSchema,
  listOfferings,
  listOfferingsReference,
} from "@/lib/catalog";
import type { Ctx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { newTenant } from "@/test/factories";
import { offeringsPageQuery } from "../offerings-sql";
import { allocate, clockAt, makeCatalog, restrictOrg, type TestCatalog } from "./fixture";

let c: TestCatalog;
let ctx: Ctx;
let slug: string;

beforeAll(async () => {
  c = await makeCatalog();
  // Some capacity held (whole GPUs and MIG slices), so availability differs per offering and sorts matter.
  await allocate(getDb(), c.gpu(c.nodes.bigA1.id, 0), 7);
  await allocate(getDb(), c.gpu(c.nodes.bigA1.id, 6), 3, { migProfile: "3g.40gb" });
  const tenant = await newTenant("paged");
  await restrictOrg(getDb(), tenant.org.id, ["EU"]);
  ctx = clockAt(tenant.ctx, c.now);
  slug = tenant.org.slug;
});

describe("listOfferings (narrow keys, page widened) equals the previous one-statement query", () => {
  const combos: CatalogFilterInput[] = [
    {},
    { sort: "price_desc", pageSize: 10, page: 2 },
    { sort: "per_gpu_asc" },
    { sort: "per_tflop_desc" },
    { sort: "gpu_asc" },
    { sort: "gpu_desc" },
    { sort: "memory_desc" },
    { sort: "region_asc" },
    { sort: "available_desc" },
    { sort: "energy_asc" },
    { sort: "co2_desc" },
    { gpuCount: "mig", sort: "available_asc" },
    { gpuCount: "2", pricing: "spot" },
    { minMemoryGib: 40, available: true },
    { jurisdiction: ["EU"], maxPrice: 5, sort: "per_gpu_desc" },
    { pricing: "spot", maxPrice: 1, available: true, sort: "co2_asc" },
    { page: 999 },
    { available: true, page: 999 },
  ];
  it.each(combos)("%j", async (f) => {
    const input = { gpu: [c.BIG, c.SMALL], pageSize: 100, ...f };
    const paged = await listOfferings(ctx, slug, input);
    expect(paged).toEqual(await listOfferingsReference(ctx, slug, input));
    if (!f.page) expect(paged.items.length).toBeGreaterThan(0);
  });
});

type PlanNode = {
  "Node Type": string;
  "Subplan Name"?: string;
  "Parent Relationship"?: string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
};
const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

describe("the page's keys are planned without a join, whatever the statistics", () => {
  // On never-analyzed tables the prices in force were estimated at one row and each offering was joined to the
  // instance types by a nested loop over all of them (issue 13); the summary has no join to misplan.
  it.each<CatalogFilterInput>([
    {},
    { region: ["x"], jurisdiction: ["EU"], minMemoryGib: 40, gpuCount: "8", maxPrice: 5, available: true },
    { sort: "co2_desc" },
    { sort: "gpu_asc", pricing: "spot" },
    { sort: "region_asc" },
  ])("%j", async (f) => {
    const filters = catalogFiltersSchema.parse({ gpu: [c.BIG, c.SMALL], ...f });
    const { rows } = await getDb().execute<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
      sql`explain (format json) ${offeringsPageQuery(c.now, ["EU"], filters)}`,
    );
    const plan = rows[0]?.["QUERY PLAN"][0]?.Plan as PlanNode;
    const page = nodesOf(plan).find((n) => n["Subplan Name"] === "CTE page");
    expect(page).toBeDefined();
    // What runs once (init plans: the capacity object, the facts) is left out; joins there span a few rows.
    const perOffering = (n: PlanNode): PlanNode[] => [
      n,
      ...(n.Plans ?? []).filter((p) => p["Parent Relationship"] !== "InitPlan").flatMap(perOffering),
    ];
    const types = perOffering(page as PlanNode).map((n) => n["Node Type"]);
    expect(perOffering(page as PlanNode).some((n) => n["Relation Name"] === "offering_summaries")).toBe(true);
    expect(types.filter((t) => /Join|Nested Loop/.test(t))).toEqual([]);
    // The prices are not read per request at all: their periods are kept in offering_summaries (drizzle 0028).
    expect(nodesOf(plan).filter((n) => n["Relation Name"] === "prices")).toEqual([]);
  });
});

import { z } from "zod";
import {
  CATALOG_SORTS,
  DEFAULT_PAGE_SIZE,
  GPU_COUNT_OPTIONS,
  MAX_COMPARE,
  PAGE_SIZES,
  PRICING_MODELS,
} from "./options";

// The constants live apart from zod so that client components can import them without it (issue 13).
export * from "./options";

const code = z
  .string()
  .regex(/^[a-z0-9][a-z0-9.-]{0,62}$/, "Must be 1–63 lowercase letters, digits, dots or hyphens");
const list = (item: z.ZodString) => z.array(item).max(50);

/**
 * One schema per field, so a bad value in one filter is dropped and reported while the others still apply
 * (a shared link with a typo shows results, never an error page).
 */
const fields = {
  region: list(code).default([]),
  jurisdiction: list(z.string().regex(/^[A-Z]{2,8}$/, "Must be 2–8 capital letters, e.g. EU or US")).default(
    [],
  ),
  gpu: list(code).default([]),
  minMemoryGib: z.coerce.number().int().min(1).max(4096).optional(),
  gpuCount: z.enum(GPU_COUNT_OPTIONS).optional(),
  pricing: z.enum(PRICING_MODELS).default("on_demand"),
  maxPrice: z.coerce.number().positive().max(1_000_000).optional(),
  available: z
    .union([z.literal(true), z.enum(["1", "true", "on"]).transform(() => true as const)])
    .optional(),
  sort: z.enum(CATALOG_SORTS).default("price_asc"),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
    .default(DEFAULT_PAGE_SIZE),
};

/** The catalog filters, shared by the page, the API and the tests. */
export const catalogFiltersSchema = z.object(fields);
export type CatalogFilters = z.output<typeof catalogFiltersSchema>;
export type CatalogFilterInput = z.input<typeof catalogFiltersSchema>;

const MULTI = new Set(["region", "jurisdiction", "gpu"]);

export type RawParams = URLSearchParams | Record<string, string | string[] | undefined>;

function valuesOf(raw: RawParams, key: string): string[] {
  const v = raw instanceof URLSearchParams ? raw.getAll(key) : raw[key];
  const arr = v === undefined ? [] : Array.isArray(v) ? v : [v];
  // Multi-value fields also accept "a,b" so a hand-written link stays short.
  return arr
    .flatMap((s) => (MULTI.has(key) ? s.split(",") : [s]))
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Parse URL search params (or a plain record) into filters. Invalid values never throw: each bad field falls
 * back to its default and its name is returned in `ignored` so the caller can say so.
 */
export function parseCatalogFilters(raw: RawParams): { filters: CatalogFilters; ignored: string[] } {
  const out: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, schema] of Object.entries(fields) as [keyof typeof fields, z.ZodType][]) {
    const values = valuesOf(raw, key);
    const input = MULTI.has(key) ? values : values[0];
    const parsed = schema.safeParse(input);
    if (parsed.success) out[key] = parsed.data;
    else {
      ignored.push(key);
      out[key] = schema.safeParse(MULTI.has(key) ? [] : undefined).data;
    }
  }
  return { filters: catalogFiltersSchema.parse(out), ignored };
}

const DEFAULTS = catalogFiltersSchema.parse({});

/** URL search params for filters, leaving out defaults so links stay short and canonical. */
export function catalogSearchParams(filters: Partial<CatalogFilters>): URLSearchParams {
  const p = new URLSearchParams();
  for (const key of Object.keys(fields) as (keyof CatalogFilters)[]) {
    const v = filters[key];
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) p.append(key, item);
    else if (key === "available") p.set(key, "1");
    else if (v !== DEFAULTS[key]) p.set(key, String(v));
  }
  return p;
}

const compareKey = /^([a-z0-9][a-z0-9.-]{0,62})@([a-z0-9][a-z0-9.-]{0,62})$/;

export type CompareKey = { instanceTypeId: string; regionCode: string };

/** "<instance type>@<region>", the value one compare checkbox submits. */
export const compareKeyOf = (k: CompareKey) => `${k.instanceTypeId}@${k.regionCode}`;

/**
 * The offerings a compare link names (`?o=h100.8x@eu-de-fra1&o=…`): malformed and repeated keys dropped, the
 * first MAX_COMPARE kept; `dropped` says how many valid ones did not fit, so the page can say so.
 */
export function parseCompareKeys(raw: RawParams): { keys: CompareKey[]; dropped: number } {
  const seen = new Set<string>();
  const keys: CompareKey[] = [];
  for (const value of valuesOf(raw, "o").flatMap((v) => v.split(","))) {
    const m = compareKey.exec(value.trim());
    if (!m || seen.has(m[0])) continue;
    seen.add(m[0]);
    keys.push({ instanceTypeId: m[1] as string, regionCode: m[2] as string });
  }
  return { keys: keys.slice(0, MAX_COMPARE), dropped: Math.max(0, keys.length - MAX_COMPARE) };
}

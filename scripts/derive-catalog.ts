/**
 * `npm run catalog:derive [marketDir]` — derive the demo catalog (lib/seed/catalog-data.json) from the public
 * market snapshot in ../shared/data/market (gpu_models.csv, gpu_offerings.csv; see that folder's README).
 * The JSON is committed so a fresh clone seeds without the shared folder. Same input → byte-identical output.
 *
 * Derivation rules (also in docs/catalog.md):
 * 1. GPU models: the 8 below, specs copied from gpu_models.csv (`memory_gib`, `fp16_or_bf16_dense_tflops`,
 *    `memory_bandwidth_gbps`, `tdp_watts`); empty cells stay null. MIG profiles from `mig_profiles`; a profile
 *    "Ng.Mgb" takes N of the GPU's 7 compute slices and M GiB.
 * 2. Market median: per model, the median of per-GPU on-demand prices (instance price / accelerator_count) over
 *    every offering row whose accelerator is in the model's label set (MARKET_LABELS), with a non-empty
 *    on-demand price and price_includes_host != "no" (GCP attach-only rows lack the host). For the generic
 *    "A100" label the row's gpu_memory_gib decides 40 GB (< 79 or empty) vs 80 GB. Even count → mean of the
 *    two middle values. Market range: the 10th and 90th percentile of the same per-GPU prices (linear
 *    interpolation between the closest ranks: rank p × (n − 1) of the sorted values, numpy's default).
 * 3. Our per-GPU on-demand base = floor(median × 0.85) to the cent. Per region it is multiplied by a small
 *    regional factor (0.97–1.06) and rounded to the cent; the script fails if any result exceeds the median.
 *    A whole-GPU instance costs per-GPU price × GPU count (no volume discount).
 * 4. Spot = on-demand × the model's median spot/on-demand ratio over rows that have both prices with
 *    0 < spot < on-demand, clamped to [0.35, 0.75]; models without such rows use a fixed 0.60 (40 % off).
 * 5. Reserved: 1 month = on-demand × 0.85, 1 year = on-demand × 0.65.
 * 6. MIG slice (every profile except 7g, which is a whole GPU and sold as the 1-GPU type) = the 1-GPU price
 *    of the same pricing model × slices/7 × 1.10 (10 % premium for the partitioning), rounded to the cent.
 * 7. Host size per GPU (vCPU, RAM) = the median of vcpus/accelerator_count and memory_gib/accelerator_count
 *    over the same market rows, rounded to even vCPUs and to 8 GiB; local disk per GPU is a fixed table.
 *    MIG slices get the slice share (even vCPUs, at least 2; RAM in 8 GiB steps, at least 8; disk in 10 GiB).
 * 8. Fleet: fixed per-region tables below (nodes of 8 GPUs, L4/A10 nodes of 4); H100/H200/B200 are few so
 *    they are scarce; some H100/A100 GPUs run in MIG mode; one node is draining.
 * 9. Price history: current prices take effect 90 days before seeding; whole-GPU H100 and A100 80GB
 *    on-demand prices also get an earlier row 8 % higher (180 → 90 days before) so effective dating shows.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// Region figures are public typical values and are ESTIMATES, not measurements of any facility.
// Grid intensity (gCO2/kWh): national/sub-national annual averages for 2023 as published by Ember
// (Yearly Electricity Data) and the EEA, rounded; US-East uses the PJM/Virginia average (EPA eGRID
// SRVC/RFCE range); Japan from Ember/IEA. PUE: Uptime Institute Global Data Center Survey 2023 reports
// ~1.58 on average; recent GPU builds run 1.1–1.4, cooler climates lower — values chosen within that range.
const REGIONS = [
  {
    code: "eu-es-mad1",
    name: "Madrid",
    city: "Madrid",
    country: "ES",
    jurisdiction: "EU",
    pue: 1.3,
    grid: 125,
    mult: 1.0,
  },
  {
    code: "eu-de-fra1",
    name: "Frankfurt",
    city: "Frankfurt am Main",
    country: "DE",
    jurisdiction: "EU",
    pue: 1.25,
    grid: 380,
    mult: 1.03,
  },
  {
    code: "eu-fi-hel1",
    name: "Helsinki",
    city: "Helsinki",
    country: "FI",
    jurisdiction: "EU",
    pue: 1.12,
    grid: 80,
    mult: 0.97,
  },
  {
    code: "uk-lon1",
    name: "London",
    city: "London",
    country: "GB",
    jurisdiction: "UK",
    pue: 1.3,
    grid: 210,
    mult: 1.05,
  },
  {
    code: "us-east-1",
    name: "US East (Virginia)",
    city: "Ashburn",
    country: "US",
    jurisdiction: "US",
    pue: 1.35,
    grid: 350,
    mult: 0.98,
  },
  {
    code: "apac-jp-tyo1",
    name: "Tokyo",
    city: "Tokyo",
    country: "JP",
    jurisdiction: "APAC",
    pue: 1.4,
    grid: 460,
    mult: 1.06,
  },
] as const;

type ModelDef = { id: string; name: string; csvRow: string; labels: string[]; diskPerGpu: number };
const MODELS: ModelDef[] = [
  { id: "b200", name: "B200", csvRow: "B200", labels: ["B200"], diskPerGpu: 3840 },
  { id: "h200", name: "H200", csvRow: "H200", labels: ["H200"], diskPerGpu: 3840 },
  {
    id: "h100",
    name: "H100",
    csvRow: "H100",
    labels: ["H100", "H100-SXM", "H100-MEGA", "H100-NVLINK"],
    diskPerGpu: 3200,
  },
  {
    id: "a100-80gb",
    name: "A100 80GB",
    csvRow: "A100-80GB",
    labels: ["A100-80GB", "A100@80"],
    diskPerGpu: 2000,
  },
  { id: "a100-40gb", name: "A100 40GB", csvRow: "A100", labels: ["A100@40"], diskPerGpu: 1000 },
  { id: "l40s", name: "L40S", csvRow: "L40S", labels: ["L40S"], diskPerGpu: 960 },
  { id: "l4", name: "L4", csvRow: "L4", labels: ["L4"], diskPerGpu: 400 },
  { id: "a10", name: "A10", csvRow: "A10", labels: ["A10"], diskPerGpu: 400 },
];
const WHOLE_COUNTS = [1, 2, 4, 8];
const OUR_DISCOUNT = 0.85;
const SPOT_FALLBACK = 0.6;
const RESERVED = { reserved_1m: 0.85, reserved_1y: 0.65 } as const;
const MIG_PREMIUM = 1.1;
const EARLIER = { models: ["h100", "a100-80gb"], factor: 1.08 };

// Fleet per region: [model, nodes, GPUs per node, MIG GPUs on the first node]. Regions lack some models.
type FleetLine = [model: string, nodes: number, gpusPerNode: number, migGpus?: number];
const FLEET: Record<string, FleetLine[]> = {
  "eu-es-mad1": [
    ["h100", 1, 8, 2],
    ["a100-80gb", 2, 8, 4],
    ["l40s", 2, 8],
    ["l4", 2, 4],
    ["a10", 1, 4],
  ],
  "eu-de-fra1": [
    ["h200", 1, 8],
    ["h100", 2, 8],
    ["a100-80gb", 2, 8],
    ["a100-40gb", 1, 8, 4],
    ["l40s", 2, 8],
    ["l4", 1, 4],
  ],
  "eu-fi-hel1": [
    ["h100", 1, 8],
    ["a100-40gb", 2, 8, 2],
    ["l40s", 1, 8],
    ["l4", 2, 4],
    ["a10", 2, 4],
  ],
  "uk-lon1": [
    ["h100", 1, 8, 2],
    ["a100-80gb", 1, 8],
    ["l40s", 1, 8],
    ["l4", 1, 4],
  ],
  "us-east-1": [
    ["b200", 1, 8],
    ["h200", 1, 8],
    ["h100", 3, 8, 4],
    ["a100-80gb", 2, 8],
    ["a100-40gb", 2, 8],
    ["l40s", 2, 8],
    ["l4", 2, 4],
    ["a10", 2, 4],
  ],
  "apac-jp-tyo1": [
    ["h100", 1, 8],
    ["a100-80gb", 1, 8, 2],
    ["l40s", 1, 8],
    ["l4", 2, 4],
  ],
};
/** Shows that a draining node's GPUs never count as capacity. */
const DRAINING_NODES = ["us-east-1-h100-03"];

/** RFC 4180 CSV (quoted fields may hold commas, quotes and newlines). */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endField();
    else if (c === "\n") endRow();
    else if (c !== "\r") field += c;
  }
  if (field || row.length) endRow();
  const [header, ...data] = rows.filter((r) => r.length > 1 || r[0]);
  if (!header) return [];
  return data.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""])));
}

const num = (s: string | undefined): number | null => (s === undefined || s.trim() === "" ? null : Number(s));
const cents = (x: number) => Math.round(x * 100) / 100;
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  if (!s.length) throw new Error("median of nothing");
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/** The p-quantile (0..1) of xs, interpolating linearly at rank p × (n − 1) of the sorted values. */
export const quantile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) throw new Error("quantile of nothing");
  const r = p * (s.length - 1);
  const lo = Math.floor(r);
  const hi = Math.min(lo + 1, s.length - 1);
  return (s[lo] as number) + ((s[hi] as number) - (s[lo] as number)) * (r - lo);
};
const round4 = (x: number) => Math.round(x * 10000) / 10000;

function labelOf(r: Record<string, string>): string {
  if (r.accelerator !== "A100") return r.accelerator ?? "";
  return (num(r.gpu_memory_gib) ?? 0) >= 79 ? "A100@80" : "A100@40";
}

function deriveModel(def: ModelDef, specs: Record<string, string>, offers: Record<string, string>[]) {
  const rows = offers.filter((r) => def.labels.includes(labelOf(r)) && r.price_includes_host !== "no");
  const priced = rows.filter((r) => num(r.price_per_hour_usd) !== null);
  const perGpu = priced.map((r) => (num(r.price_per_hour_usd) as number) / Number(r.accelerator_count));
  const ratios = priced
    .map((r) => (num(r.spot_price_per_hour_usd) ?? 0) / (num(r.price_per_hour_usd) as number))
    .filter((x) => x > 0 && x < 1);
  const host = rows.filter((r) => num(r.vcpus) && num(r.memory_gib));
  const vcpus = median(host.map((r) => Number(r.vcpus) / Number(r.accelerator_count)));
  const ram = median(host.map((r) => Number(r.memory_gib) / Number(r.accelerator_count)));
  const profiles = (specs.mig_profiles ?? "")
    .split(";")
    .filter(Boolean)
    .map((name) => {
      const m = /^(\d)g\.(\d+)gb$/.exec(name);
      if (!m) throw new Error(`unexpected MIG profile ${name}`);
      return { name, slices: Number(m[1]), memoryGib: Number(m[2]) };
    });
  const marketMedian = median(perGpu);
  const spotRatio = ratios.length ? Math.min(0.75, Math.max(0.35, median(ratios))) : SPOT_FALLBACK;
  return {
    model: {
      id: def.id,
      name: def.name,
      vendor: specs.vendor ?? "NVIDIA",
      memoryGib: Math.round(num(specs.memory_gib) ?? 0),
      bf16Tflops: num(specs.fp16_or_bf16_dense_tflops),
      memoryBandwidthGbps: num(specs.memory_bandwidth_gbps),
      tdpWatts: num(specs.tdp_watts),
      migProfiles: profiles,
    },
    market: {
      rows: perGpu.length,
      medianPerGpuUsd: round4(marketMedian),
      p10PerGpuUsd: round4(quantile(perGpu, 0.1)),
      p90PerGpuUsd: round4(quantile(perGpu, 0.9)),
      spotRows: ratios.length,
      spotRatio: Math.round(spotRatio * 10000) / 10000,
    },
    basePerGpu: Math.floor(marketMedian * OUR_DISCOUNT * 100) / 100,
    host: {
      vcpusPerGpu: Math.max(4, Math.round(vcpus / 2) * 2),
      ramPerGpu: Math.max(16, Math.round(ram / 8) * 8),
      diskPerGpu: def.diskPerGpu,
    },
  };
}

type Derived = ReturnType<typeof deriveModel>;

function instanceTypesFor(d: Derived) {
  const whole = WHOLE_COUNTS.map((n) => ({
    id: `${d.model.id}.${n}x`,
    gpuModelId: d.model.id,
    gpuCount: n,
    migProfile: null as string | null,
    vcpus: d.host.vcpusPerGpu * n,
    ramGib: d.host.ramPerGpu * n,
    localDiskGib: d.host.diskPerGpu * n,
  }));
  const mig = d.model.migProfiles
    .filter((p) => p.slices < 7)
    .map((p) => ({
      id: `${d.model.id}.mig-${p.name}`,
      gpuModelId: d.model.id,
      gpuCount: 1,
      migProfile: p.name as string | null,
      vcpus: Math.max(2, Math.round((d.host.vcpusPerGpu * p.slices) / 7 / 2) * 2),
      ramGib: Math.max(8, Math.round((d.host.ramPerGpu * p.slices) / 7 / 8) * 8),
      localDiskGib: Math.round((d.host.diskPerGpu * p.slices) / 7 / 10) * 10,
    }));
  return [...whole, ...mig];
}

export function deriveCatalog(marketDir: string) {
  const specRows = parseCsv(fs.readFileSync(path.join(marketDir, "gpu_models.csv"), "utf8"));
  const offers = parseCsv(fs.readFileSync(path.join(marketDir, "gpu_offerings.csv"), "utf8"));
  const derived = MODELS.map((def) => {
    const specs = specRows.find((r) => r.accelerator === def.csvRow);
    if (!specs) throw new Error(`gpu_models.csv has no row ${def.csvRow}`);
    return deriveModel(def, specs, offers);
  });
  const instanceTypes = derived.flatMap(instanceTypesFor);
  const prices: Array<{
    instanceTypeId: string;
    regionCode: string;
    pricingModel: "on_demand" | "spot" | "reserved_1m" | "reserved_1y";
    usdPerHour: string;
    fromDaysAgo: number;
    toDaysAgo: number | null;
  }> = [];
  for (const region of REGIONS) {
    const models = new Set((FLEET[region.code] ?? []).map(([m]) => m));
    for (const d of derived.filter((x) => models.has(x.model.id))) {
      const perGpu = cents(d.basePerGpu * region.mult);
      if (perGpu > d.market.medianPerGpuUsd) throw new Error(`${d.model.id}@${region.code} above median`);
      const perModel = {
        on_demand: perGpu,
        spot: cents(perGpu * d.market.spotRatio),
        reserved_1m: cents(perGpu * RESERVED.reserved_1m),
        reserved_1y: cents(perGpu * RESERVED.reserved_1y),
      };
      for (const it of instanceTypesFor(d)) {
        const slices = it.migProfile ? Number(it.migProfile[0]) : 0;
        for (const [pm, gpuPrice] of Object.entries(perModel) as [keyof typeof perModel, number][]) {
          const usd = slices
            ? Math.max(0.01, cents((gpuPrice * slices * MIG_PREMIUM) / 7))
            : cents(gpuPrice * it.gpuCount);
          const row = { instanceTypeId: it.id, regionCode: region.code, pricingModel: pm };
          prices.push({ ...row, usdPerHour: usd.toFixed(4), fromDaysAgo: 90, toDaysAgo: null });
          if (pm === "on_demand" && !slices && EARLIER.models.includes(d.model.id)) {
            const old = cents(usd * EARLIER.factor).toFixed(4);
            prices.push({ ...row, usdPerHour: old, fromDaysAgo: 180, toDaysAgo: 90 });
          }
        }
      }
    }
  }
  const nodes = REGIONS.flatMap((region) =>
    (FLEET[region.code] ?? []).flatMap(([modelId, count, gpus, migGpus = 0]) => {
      const d = derived.find((x) => x.model.id === modelId);
      if (!d) throw new Error(`fleet uses unknown model ${modelId}`);
      return Array.from({ length: count }, (_, i) => {
        const name = `${region.code}-${modelId}-${String(i + 1).padStart(2, "0")}`;
        return {
          name,
          regionCode: region.code,
          gpuModelId: modelId,
          gpuCount: gpus,
          vcpus: d.host.vcpusPerGpu * gpus,
          ramGib: d.host.ramPerGpu * gpus,
          status: DRAINING_NODES.includes(name) ? ("draining" as const) : ("active" as const),
          // MIG GPUs are the last indexes of the first node, so the other GPUs stay whole.
          migGpuIndexes: i === 0 ? Array.from({ length: migGpus }, (_, k) => gpus - migGpus + k) : [],
        };
      });
    }),
  );
  return {
    source: "../shared/data/market (gpu_models.csv, gpu_offerings.csv) via scripts/derive-catalog.ts",
    market: Object.fromEntries(derived.map((d) => [d.model.id, d.market])),
    regions: REGIONS.map(({ mult: _m, grid, ...r }) => ({ ...r, gridGco2PerKwh: grid })),
    gpuModels: derived.map((d) => d.model),
    instanceTypes,
    prices,
    nodes,
  };
}

export type CatalogData = ReturnType<typeof deriveCatalog>;

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain) {
  const dir = path.resolve(process.argv[2] ?? path.join(process.cwd(), "..", "shared", "data", "market"));
  if (!fs.existsSync(path.join(dir, "gpu_offerings.csv"))) {
    console.error(`No gpu_offerings.csv in ${dir}. Pass the market folder: npm run catalog:derive -- <dir>`);
    process.exit(1);
  }
  const data = deriveCatalog(dir);
  const out = path.join(process.cwd(), "lib", "seed", "catalog-data.json");
  fs.writeFileSync(out, `${JSON.stringify(data, null, 2)}\n`);
  // The repository's formatter owns JSON layout too; running it keeps `biome check .` green after a derive.
  spawnSync(path.join(process.cwd(), "node_modules", ".bin", "biome"), ["format", "--write", out], {
    stdio: "ignore",
  });
  console.log(
    `wrote ${path.relative(process.cwd(), out)}: ${data.regions.length} regions, ${data.gpuModels.length} GPU models, ${data.instanceTypes.length} instance types, ${data.prices.length} prices, ${data.nodes.length} nodes`,
  );
  for (const [id, m] of Object.entries(data.market)) console.log(`  ${id}: ${JSON.stringify(m)}`);
}

import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export const pricingModel = pgEnum("pricing_model", ["on_demand", "spot", "reserved_1m", "reserved_1y"]);
export const nodeStatus = pgEnum("node_status", ["active", "draining", "down"]);

export const regions = pgTable("regions", {
  /** e.g. "eu-es-mad1" */
  code: text("code").primaryKey(),
  name: text("name").notNull(),
  city: text("city").notNull(),
  /** ISO 3166-1 alpha-2 */
  country: text("country").notNull(),
  /** Data-residency bloc: EU, UK, US, APAC, ... */
  jurisdiction: text("jurisdiction").notNull(),
  pue: real("pue").notNull(),
  gridGco2PerKwh: real("grid_gco2_per_kwh").notNull(),
  active: boolean("active").notNull().default(true),
});

export type MigProfile = {
  /** NVIDIA profile name, e.g. "1g.10gb" */
  name: string;
  /** Compute slices out of 7 the profile takes on one GPU. */
  slices: number;
  memoryGib: number;
};

/**
 * Power limit assumed for boards whose TDP the market snapshot leaves blank (B200, A10). The one value the
 * catalog's energy figures, the provider's power envelope and the telemetry charts all use, so they agree.
 */
export const FALLBACK_TDP_WATTS = 300;

export const gpuModels = pgTable("gpu_models", {
  /** e.g. "h100" */
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  vendor: text("vendor").notNull(),
  memoryGib: integer("memory_gib").notNull(),
  bf16Tflops: real("bf16_tflops"),
  memoryBandwidthGbps: integer("memory_bandwidth_gbps"),
  tdpWatts: integer("tdp_watts"),
  migProfiles: jsonb("mig_profiles").$type<MigProfile[]>().notNull().default([]),
  /**
   * Median on-demand USD per GPU-hour of this model across public cloud offers (the operator's market data,
   * docs/catalog.md); null where the operator has none. The catalog shows each price against it.
   */
  marketMedianUsdPerGpuHour: real("market_median_usd_per_gpu_hour"),
  /** The market range: 10th and 90th percentile of the same per-GPU on-demand prices; null where unknown. */
  marketP10UsdPerGpuHour: real("market_p10_usd_per_gpu_hour"),
  marketP90UsdPerGpuHour: real("market_p90_usd_per_gpu_hour"),
});

export const instanceTypes = pgTable(
  "instance_types",
  {
    /** e.g. "h100.8x" or "h100.mig-1g.10gb" */
    id: text("id").primaryKey(),
    gpuModelId: text("gpu_model_id")
      .notNull()
      .references(() => gpuModels.id),
    /** Whole GPUs; 1 for a MIG slice. */
    gpuCount: integer("gpu_count").notNull(),
    /** Set for a MIG slice instance type (then gpuCount is 1 and the slice is a fraction of one GPU). */
    migProfile: text("mig_profile"),
    vcpus: integer("vcpus").notNull(),
    ramGib: integer("ram_gib").notNull(),
    localDiskGib: integer("local_disk_gib").notNull(),
  },
  (t) => [index("instance_types_gpu_model_idx").on(t.gpuModelId)],
);

export const prices = pgTable(
  "prices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    instanceTypeId: text("instance_type_id")
      .notNull()
      .references(() => instanceTypes.id),
    regionCode: text("region_code")
      .notNull()
      .references(() => regions.code),
    pricingModel: pricingModel("pricing_model").notNull(),
    /** USD per hour for the whole instance. */
    usdPerHour: numeric("usd_per_hour", { precision: 12, scale: 4 }).notNull(),
    effectiveFrom: timestamp("effective_from", { withTimezone: true }).notNull(),
    /** Exclusive; null = still in force. */
    effectiveTo: timestamp("effective_to", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("prices_key").on(t.instanceTypeId, t.regionCode, t.pricingModel, t.effectiveFrom),
    index("prices_region_idx").on(t.regionCode),
  ],
);

export const nodes = pgTable(
  "nodes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    regionCode: text("region_code")
      .notNull()
      .references(() => regions.code),
    gpuModelId: text("gpu_model_id")
      .notNull()
      .references(() => gpuModels.id),
    gpuCount: integer("gpu_count").notNull(),
    vcpus: integer("vcpus").notNull(),
    ramGib: integer("ram_gib").notNull(),
    status: nodeStatus("status").notNull().default("active"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("nodes_name_key").on(t.name),
    index("nodes_region_model_idx").on(t.regionCode, t.gpuModelId),
  ],
);

/** One row per physical GPU of a node. A GPU in MIG mode is carved into 7 compute slices. */
export const nodeGpus = pgTable(
  "node_gpus",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    nodeId: uuid("node_id")
      .notNull()
      .references(() => nodes.id, { onDelete: "cascade" }),
    gpuIndex: integer("gpu_index").notNull(),
    migEnabled: boolean("mig_enabled").notNull().default(false),
  },
  (t) => [uniqueIndex("node_gpus_node_index_key").on(t.nodeId, t.gpuIndex)],
);

/**
 * Capacity held by an instance: one row per GPU it uses. A whole GPU holds all 7 slices; a MIG slice holds
 * its profile's slices of a GPU in MIG mode. Active while releasedAt is null. The invariant
 * (sum of active slices per GPU <= 7) is checked in SQL by the provisioning tests.
 */
export const gpuAllocations = pgTable(
  "gpu_allocations",
  {
    // A sequence, not a random uuid (0033): a tick inserts ~16,400 rows, and each random key cost a strong
    // random draw and an insert at a random place in the primary key's index; nothing outside reads the id.
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    orgId: uuid("org_id").notNull(),
    instanceId: uuid("instance_id").notNull(),
    // No foreign keys (0020, 0022): a tick inserts ~16,000 rows, and each row's key check was a query and a
    // row lock of its own. The insert trigger checks that every row's GPU exists and is on its node, under the
    // node's lock; deleting a GPU that an allocation references is refused by a trigger on node_gpus (under
    // the same lock), and node_gpus references nodes, so a row's node and GPU cannot go while it is referenced.
    nodeId: uuid("node_id").notNull(),
    nodeGpuId: uuid("node_gpu_id").notNull(),
    slices: integer("slices").notNull(),
    migProfile: text("mig_profile"),
    allocatedAt: timestamp("allocated_at", { withTimezone: true }).notNull().defaultNow(),
    releasedAt: timestamp("released_at", { withTimezone: true }),
  },
  (t) => [
    // No index on org_id (0035): nothing reads allocations by organization alone (tenants' views go through
    // their instances), and a tick paid ~16,400 entries for it.
    // No index on instance_id alone (0029): every read by instance (the holders, a release, an engine's sync)
    // reads live rows, which gpu_allocations_live_instance_gpu_key below serves; a tick paid ~16,400 entries
    // for it, and released rows only made it grow.
    index("gpu_allocations_active_gpu_idx").on(t.nodeGpuId).where(sql`released_at is null`),
    // The database refuses a double booking itself: the triggers in the migrations refuse any GPU whose live
    // slices would sum past 7, under its node's lock (an insert's statement trigger, 0032/0035, and an
    // update's row trigger, 0022), so a second whole GPU (7 + 7) is refused with the rest. A unique index on
    // live whole-GPU rows said the same a second time; a tick paid ~15,600 uniqueness checks for it (0036).
    // One live row per instance × GPU:
    uniqueIndex("gpu_allocations_live_instance_gpu_key")
      .on(t.instanceId, t.nodeGpuId)
      .where(sql`released_at is null`),
  ],
);

/**
 * What each node could place right now, kept by statement-level triggers on nodes, node_gpus and
 * gpu_allocations (drizzle 0019) so the catalog reads one narrow row per node instead of recounting every GPU
 * and live allocation per request. One row per node, rewritten from that node's GPUs and live allocations
 * whenever any of them changes (never adjusted by deltas), under a lock on the row: exact, and no row shared
 * by a whole region to serialize on.
 */
export const nodeCapacity = pgTable(
  "node_capacity",
  {
    nodeId: uuid("node_id")
      .primaryKey()
      .references(() => nodes.id, { onDelete: "cascade" }),
    regionCode: text("region_code").notNull(),
    gpuModelId: text("gpu_model_id").notNull(),
    /** The node's status is active (only active nodes take placements). */
    active: boolean("active").notNull(),
    /** Whole GPUs not in MIG mode with no live allocation. */
    wholeFree: integer("whole_free").notNull(),
    /** Element s (1..7): Σ over the node's MIG-mode GPUs of floor(free slices / s). */
    migFree: integer("mig_free").array().notNull(),
  },
  // The catalog sums the page's offerings' availability from their region's and model's nodes (drizzle 0028).
  (t) => [index("node_capacity_region_model_idx").on(t.regionCode, t.gpuModelId)],
);

/**
 * The catalog's summary: one row per offering (instance type × region) and price period, holding everything
 * the catalog filters, sorts and shows except availability and the organization's residency mark, so a
 * request reads narrow rows of one table instead of aggregating the prices in force (issue 13). A period is
 * the span between two consecutive price boundaries (any pricing model's effective_from or effective_to) of
 * the offering; its four prices are those in force throughout it (the lowest where rows overlap, as the
 * catalog always showed), so a request at any instant — the injected clock of tests, a scheduled change that
 * has become effective — picks `valid_from <= at < valid_to` and nothing has to be refreshed when a future
 * price takes effect. Rewritten for the offerings a statement touches by triggers on prices, instance types,
 * GPU models and regions (drizzle 0028), never adjusted by deltas; docs/adr/0013-catalog-summary.md.
 */
export const offeringSummaries = pgTable(
  "offering_summaries",
  {
    instanceTypeId: text("instance_type_id").notNull(),
    regionCode: text("region_code").notNull(),
    validFrom: timestamp("valid_from", { withTimezone: true }).notNull(),
    /** Exclusive; 'infinity' for the period that has no end yet. */
    validTo: timestamp("valid_to", { withTimezone: true }).notNull(),
    onDemand: numeric("on_demand", { precision: 12, scale: 4 }),
    spot: numeric("spot", { precision: 12, scale: 4 }),
    reserved1m: numeric("reserved_1m", { precision: 12, scale: 4 }),
    reserved1y: numeric("reserved_1y", { precision: 12, scale: 4 }),
    gpuModelId: text("gpu_model_id").notNull(),
    gpuCount: integer("gpu_count").notNull(),
    migProfile: text("mig_profile"),
    vcpus: integer("vcpus").notNull(),
    ramGib: integer("ram_gib").notNull(),
    localDiskGib: integer("local_disk_gib").notNull(),
    gpuModelName: text("gpu_model_name").notNull(),
    gpuModelMemoryGib: integer("gpu_model_memory_gib").notNull(),
    bf16Tflops: real("bf16_tflops"),
    memoryBandwidthGbps: integer("memory_bandwidth_gbps"),
    tdpWatts: integer("tdp_watts"),
    marketMedianUsdPerGpuHour: real("market_median_usd_per_gpu_hour"),
    migSlices: integer("mig_slices"),
    /** Memory one device sees: the GPU's, or the MIG profile's. */
    gpuMemoryGib: integer("gpu_memory_gib").notNull(),
    /** Whole GPUs, or slices / 7 for a MIG slice (null for a MIG profile its model does not list). */
    gpuShare: numeric("gpu_share"),
    /** TDP × GPU share × the region's PUE, kW (an estimate, no host); null where the share is. */
    energyKw: doublePrecision("energy_kw"),
    regionName: text("region_name").notNull(),
    city: text("city").notNull(),
    country: text("country").notNull(),
    jurisdiction: text("jurisdiction").notNull(),
    pue: real("pue").notNull(),
    gridGco2PerKwh: real("grid_gco2_per_kwh").notNull(),
    regionActive: boolean("region_active").notNull(),
    /** "<region>/<model>/w<gpu count>" or "<region>/<model>/m<slices>": the availability figure it reads. */
    capacityKey: text("capacity_key").notNull(),
    /**
     * Instances of this type its region's active nodes can place now (whole GPUs: Σ free whole GPUs ÷ count;
     * a MIG slice: Σ free slices of that size), the same on every period's row. Kept from node_capacity at
     * the commit of each transaction that changes it (drizzle 0031), and set when the row is written.
     */
    available: integer("available").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.instanceTypeId, t.regionCode, t.validFrom] }),
    index("offering_summaries_valid_to_idx").on(t.validTo),
    // The rows an availability change rewrites: every offering of one region's model.
    index("offering_summaries_region_model_idx").on(t.regionCode, t.gpuModelId),
  ],
);

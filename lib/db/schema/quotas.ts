import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { gpuModels, regions } from "./catalog";
import { organizations, projects, users } from "./tenancy";

/**
 * An organization's quota per GPU model × region (lib/quotas). `maxGpus` is the nominal quota (guaranteed);
 * up to `borrowingLimitGpus` more may be borrowed from what the cohort leaves idle; `lendingLimitGpus` caps
 * how much of its unused nominal others may borrow (null = all of it).
 */
export const quotas = pgTable(
  "quotas",
  {
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    gpuModelId: text("gpu_model_id")
      .notNull()
      .references(() => gpuModels.id),
    regionCode: text("region_code")
      .notNull()
      .references(() => regions.code),
    /** Nominal quota in GPUs (the column keeps its first name so older rows keep their meaning). */
    maxGpus: integer("max_gpus").notNull(),
    borrowingLimitGpus: integer("borrowing_limit_gpus").notNull().default(0),
    lendingLimitGpus: integer("lending_limit_gpus"),
    /** A temporary raise (approved request) ends here: the worker puts back `revertTo`. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revertToGpus: integer("revert_to_gpus"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.gpuModelId, t.regionCode] }),
    check("quotas_nonnegative", sql`${t.maxGpus} >= 0 and ${t.borrowingLimitGpus} >= 0`),
    check(
      "quotas_lending_within_nominal",
      sql`${t.lendingLimitGpus} is null or ${t.lendingLimitGpus} between 0 and ${t.maxGpus}`,
    ),
  ],
);

/**
 * What an organization without its own quotas row gets, per GPU model × region; '*' matches any model or
 * region (the most specific row wins; without any, lib/quotas' built-in default applies).
 */
export const quotaDefaults = pgTable(
  "quota_defaults",
  {
    gpuModelId: text("gpu_model_id").notNull(),
    regionCode: text("region_code").notNull(),
    nominalGpus: integer("nominal_gpus").notNull(),
    borrowingLimitGpus: integer("borrowing_limit_gpus").notNull().default(0),
    lendingLimitGpus: integer("lending_limit_gpus"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.gpuModelId, t.regionCode] })],
);

/** An operator-defined group of organizations that lend each other idle quota. */
export const cohorts = pgTable(
  "cohorts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("cohorts_name_key").on(t.name)],
);

/** An organization belongs to at most one cohort; its weight scales its fair share of borrowed capacity. */
export const cohortMembers = pgTable(
  "cohort_members",
  {
    orgId: uuid("org_id")
      .primaryKey()
      .references(() => organizations.id, { onDelete: "cascade" }),
    cohortId: uuid("cohort_id")
      .notNull()
      .references(() => cohorts.id, { onDelete: "cascade" }),
    weight: real("weight").notNull().default(1),
  },
  (t) => [
    index("cohort_members_cohort_idx").on(t.cohortId),
    check("cohort_weight_positive", sql`${t.weight} > 0`),
  ],
);

/** A project's share of its organization's nominal quota (set by the organization's admins). */
export const projectQuotas = pgTable(
  "project_quotas",
  {
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    gpuModelId: text("gpu_model_id").notNull(),
    regionCode: text("region_code").notNull(),
    shareGpus: integer("share_gpus").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.gpuModelId, t.regionCode] }),
    index("project_quotas_org_idx").on(t.orgId),
  ],
);

export const quotaRequestStatus = pgEnum("quota_request_status", ["open", "approved", "partial", "denied"]);

/** A member's or admin's request for more nominal quota, decided by an operator. */
export const quotaRequests = pgTable(
  "quota_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    requestedBy: uuid("requested_by").references(() => users.id, { onDelete: "set null" }),
    gpuModelId: text("gpu_model_id")
      .notNull()
      .references(() => gpuModels.id),
    regionCode: text("region_code")
      .notNull()
      .references(() => regions.code),
    /** Nominal GPUs asked for in total (not on top). */
    requestedGpus: integer("requested_gpus").notNull(),
    /** Null = permanent. */
    until: timestamp("until", { withTimezone: true }),
    reason: text("reason").notNull(),
    status: quotaRequestStatus("status").notNull().default("open"),
    grantedGpus: integer("granted_gpus"),
    decisionMessage: text("decision_message"),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("quota_requests_org_idx").on(t.orgId, t.createdAt),
    index("quota_requests_status_idx").on(t.status),
  ],
);

/** A suspended organization: launches are refused, running work gets a notice and stops. */
export const orgSuspensions = pgTable("org_suspensions", {
  orgId: uuid("org_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  reason: text("reason").notNull(),
  suspendedBy: uuid("suspended_by").references(() => users.id, { onDelete: "set null" }),
  suspendedAt: timestamp("suspended_at", { withTimezone: true }).notNull(),
  /** Running instances were given this deadline to stop. */
  noticeEndsAt: timestamp("notice_ends_at", { withTimezone: true }).notNull(),
});

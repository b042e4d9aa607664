import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { gpuModels, pricingModel } from "./catalog";
import { instances } from "./provisioning";
import { services } from "./services";
import { organizations, projects, users } from "./tenancy";

export const usageKind = pgEnum("usage_kind", ["compute", "storage", "reservation_commitment"]);
/** usage: first write of a ledger key; reversal: negates a row; reissue: the corrected values of a key. */
export const usageEntry = pgEnum("usage_entry", ["usage", "reversal", "reissue"]);
export const budgetAction = pgEnum("budget_action", ["notify", "block_launches", "stop_instances"]);
export const budgetThresholdKind = pgEnum("budget_threshold_kind", ["actual", "forecast"]);
export const shutdownRule = pgEnum("shutdown_rule", ["idle", "max_runtime", "schedule"]);

/**
 * The usage ledger (append-only). One row per billable segment: an instance in one billable state, inside
 * one clock hour, at one price. Rows are never updated; a segment that turns out different (an event that
 * arrived late) gets a `reversal` row negating it and a `reissue` row with the right values, both pointing at
 * the row they correct. Spend is always sum(amount).
 */
export const usageRecords = pgTable(
  "usage_records",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Null for reservation commitments, which belong to the whole organization. */
    projectId: uuid("project_id").references(() => projects.id),
    /** No foreign key: a bill must never disappear with (or block the removal of) an instance row. */
    instanceId: uuid("instance_id"),
    /** The reservation a commitment row bills, or that covered this compute row. */
    reservationId: uuid("reservation_id"),
    kind: usageKind("kind").notNull(),
    entry: usageEntry("entry").notNull().default("usage"),
    /** Null for storage. For compute: the model the segment was billed at (a covered segment: its term). */
    pricingModel: pricingModel("pricing_model"),
    instanceTypeId: text("instance_type_id"),
    gpuModelId: text("gpu_model_id"),
    regionCode: text("region_code").notNull(),
    periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
    /** Exclusive. Whole seconds. */
    periodEnd: timestamp("period_end", { withTimezone: true }).notNull(),
    seconds: integer("seconds").notNull(),
    /** Units billed during the period: 1 instance, N GPUs (covered/commitment), N GiB (storage). */
    quantity: numeric("quantity", { precision: 16, scale: 6 }).notNull(),
    /** "instance-hour" | "gpu-hour" | "gib-hour" */
    unit: text("unit").notNull(),
    /** USD per unit-hour. */
    unitPrice: numeric("unit_price", { precision: 16, scale: 8 }).notNull(),
    /** The on-demand price of the same unit at that time, for spot and reservation savings. */
    listUnitPrice: numeric("list_unit_price", { precision: 16, scale: 8 }),
    /** quantity × seconds / 3600 × unit price. */
    amount: numeric("amount", { precision: 18, scale: 6 }).notNull(),
    currency: text("currency").notNull().default("USD"),
    correctionOf: bigint("correction_of", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    // Re-metering a window inserts the same keys again: ON CONFLICT DO NOTHING makes it a no-op.
    uniqueIndex("usage_records_instance_key")
      .on(t.instanceId, t.kind, t.periodStart)
      .where(sql`entry = 'usage' and instance_id is not null`),
    uniqueIndex("usage_records_commitment_key")
      .on(t.reservationId, t.periodStart)
      .where(sql`entry = 'usage' and kind = 'reservation_commitment'`),
    index("usage_records_org_period_idx").on(t.orgId, t.periodStart),
    index("usage_records_period_idx").on(t.periodStart),
    index("usage_records_instance_idx").on(t.instanceId),
  ],
);

/** How far each organization's ledger is complete; `dirtyFrom` marks a late event to re-meter from. */
export const meteringCursors = pgTable("metering_cursors", {
  orgId: uuid("org_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  meteredUntil: timestamp("metered_until", { withTimezone: true }).notNull(),
  dirtyFrom: timestamp("dirty_from", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});

/** One row (id = 1): the last instance_events id the metering has looked at for late events. */
export const meteringState = pgTable("metering_state", {
  id: smallint("id").primaryKey(),
  lastEventId: bigint("last_event_id", { mode: "number" }).notNull(),
});

export type BudgetThreshold = { kind: "actual" | "forecast"; pct: number };

export const DEFAULT_BUDGET_THRESHOLDS: BudgetThreshold[] = [
  { kind: "actual", pct: 50 },
  { kind: "actual", pct: 80 },
  { kind: "actual", pct: 100 },
  { kind: "forecast", pct: 100 },
];

/**
 * A monthly budget for the whole organization (projectId null), one project, or one inference service
 * (serviceId set, projectId its project): a service's budget counts its replicas' ledger rows only.
 */
export const budgets = pgTable(
  "budgets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    serviceId: uuid("service_id").references(() => services.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    amountUsd: numeric("amount_usd", { precision: 14, scale: 2 }).notNull(),
    currency: text("currency").notNull().default("USD"),
    thresholds: jsonb("thresholds")
      .$type<BudgetThreshold[]>()
      .notNull()
      .default(
        sql`'[{"kind":"actual","pct":50},{"kind":"actual","pct":80},{"kind":"actual","pct":100},{"kind":"forecast","pct":100}]'::jsonb`,
      ),
    /** Members of the organization who get the alerts (their current email is used at send time). */
    recipientUserIds: uuid("recipient_user_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** Extra addresses (a finance mailbox …). */
    recipientEmails: text("recipient_emails").array().notNull().default(sql`'{}'::text[]`),
    actionAt100: budgetAction("action_at_100").notNull().default("notify"),
    /** stop_instances: how long after the 100 % alert running instances are stopped. */
    graceMinutes: integer("grace_minutes").notNull().default(60),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("budgets_org_name_key").on(t.orgId, sql`lower(${t.name})`),
    index("budgets_org_idx").on(t.orgId),
    index("budgets_service_idx").on(t.serviceId).where(sql`service_id is not null`),
  ],
);

/**
 * One row per threshold crossed per budget per month at the budget's amount then: the unique key is what
 * makes alerts exactly-once. The amount is part of it so a budget raised mid-month is crossed afresh (and a
 * stop_instances grace period counts from that new crossing, not from the crossing of the old amount).
 */
export const budgetAlerts = pgTable(
  "budget_alerts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    budgetId: uuid("budget_id")
      .notNull()
      .references(() => budgets.id, { onDelete: "cascade" }),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** "YYYY-MM" (UTC). */
    period: text("period").notNull(),
    kind: budgetThresholdKind("kind").notNull(),
    pct: integer("pct").notNull(),
    budgetUsd: numeric("budget_usd", { precision: 14, scale: 2 }).notNull(),
    actualUsd: numeric("actual_usd", { precision: 14, scale: 2 }).notNull(),
    forecastUsd: numeric("forecast_usd", { precision: 14, scale: 2 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("budget_alerts_once_key").on(t.budgetId, t.period, t.kind, t.pct, t.budgetUsd),
    index("budget_alerts_org_idx").on(t.orgId, t.createdAt),
  ],
);

/** In-console notifications (banner and list). userId null = for everyone in the organization. */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** e.g. "budget.threshold", "budget.stopping", "autoshutdown.warning", "autoshutdown.stopped" */
    kind: text("kind").notNull(),
    /** "info" | "warning" | "critical" */
    severity: text("severity").notNull().default("info"),
    /** Rendered in the default language, for readers without a catalog (API, operator views). */
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** The values title and body were made from: the console renders CostNotices.<kind> in the reader's language. */
    params: jsonb("params").$type<Record<string, string | number>>().notNull().default({}),
    /** Console path, e.g. "/acme/usage". */
    link: text("link"),
    dedupeKey: text("dedupe_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("notifications_dedupe_key").on(t.dedupeKey),
    index("notifications_org_idx").on(t.orgId, t.createdAt),
  ],
);

/**
 * Who has read which notification: read state is per person (an organization-wide notice read by one
 * member stays unread, banner included, for everyone else).
 */
export const notificationReads = pgTable(
  "notification_reads",
  {
    notificationId: uuid("notification_id")
      .notNull()
      .references(() => notifications.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    readAt: timestamp("read_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.userId] })],
);

/**
 * Auto-shutdown rules an admin sets for the organization, a project, a GPU model, or a project × GPU model
 * (the most specific one applies). Defaults fill what a launch leaves out; limits bind members and viewers.
 */
export const autoShutdownPolicies = pgTable(
  "auto_shutdown_policies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    gpuModelId: text("gpu_model_id").references(() => gpuModels.id),
    defaultIdlePct: integer("default_idle_pct").notNull().default(5),
    /** Null: no idle shutdown unless the launch asks for one. */
    defaultIdleMinutes: integer("default_idle_minutes"),
    /** Members may not switch idle shutdown off. */
    idleRequired: boolean("idle_required").notNull().default(false),
    /** Members may not wait longer than this before an idle shutdown. */
    idleMinutesMax: integer("idle_minutes_max"),
    /** Members may not set a lower utilization threshold (which would make an instance look busy sooner). */
    idlePctMin: integer("idle_pct_min"),
    defaultMaxRuntimeMinutes: integer("default_max_runtime_minutes"),
    /** Members must keep a max runtime of at most this. */
    maxRuntimeMinutesMax: integer("max_runtime_minutes_max"),
    allowSnooze: boolean("allow_snooze").notNull().default(true),
    snoozeMinutesMax: integer("snooze_minutes_max").notNull().default(60),
    maxSnoozes: integer("max_snoozes").notNull().default(3),
    warningMinutes: integer("warning_minutes").notNull().default(10),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    unique("auto_shutdown_policies_scope_key").on(t.orgId, t.projectId, t.gpuModelId).nullsNotDistinct(),
  ],
);

/**
 * A pending automatic stop: created when the warning goes out, acted on at actsAt (or snoozedUntil). The
 * unique key makes each warning for one rule and due time exist once however many workers evaluate.
 */
export const shutdownWarnings = pgTable(
  "shutdown_warnings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    instanceId: uuid("instance_id")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    rule: shutdownRule("rule").notNull(),
    /** When the rule fires (idle since + minutes, started + max runtime, the schedule's next time). */
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    warnedAt: timestamp("warned_at", { withTimezone: true }).notNull(),
    /** max(dueAt, warnedAt + warning lead): a stop is never sooner than the warning promised. */
    actsAt: timestamp("acts_at", { withTimezone: true }).notNull(),
    snoozedUntil: timestamp("snoozed_until", { withTimezone: true }),
    snoozeCount: integer("snooze_count").notNull().default(0),
    /** The reason the stop will carry on the instance timeline. */
    reason: text("reason").notNull(),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    actedAt: timestamp("acted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("shutdown_warnings_once_key").on(t.instanceId, t.rule, t.dueAt),
    index("shutdown_warnings_open_idx").on(t.actsAt).where(sql`acted_at is null and cancelled_at is null`),
  ],
);

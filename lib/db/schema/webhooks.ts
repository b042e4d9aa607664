import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { organizations, users } from "./tenancy";

export const webhookFormat = pgEnum("webhook_format", ["standard", "slack"]);
export const webhookDeliveryStatus = pgEnum("webhook_delivery_status", ["pending", "delivered", "failed"]);

/**
 * An organization's HTTPS endpoint for events (lib/webhooks). The signing secret is AES-GCM sealed with a key
 * derived from NEXTAUTH_SECRET (never in the database): signing needs it in clear, so it cannot be a hash; it is
 * shown once at creation and never again.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** Event types it receives (lib/webhooks WEBHOOK_EVENT_TYPES). */
    eventTypes: text("event_types").array().notNull(),
    format: webhookFormat("format").notNull().default("standard"),
    secretSealed: text("secret_sealed").notNull(),
    /** The secret's last four characters, to tell secrets apart in the console. */
    secretHint: text("secret_hint").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_org_idx").on(t.orgId)],
);

/**
 * One event for one endpoint, written in the transaction of the change that caused it (so it exists if and only
 * if the change commits) and delivered at least once by the worker. `id` is the idempotency id receivers see
 * (webhook-id); `seq` orders deliveries of one ordering key (an instance) on one endpoint.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    /** Deliveries with the same key on one endpoint go out in order (e.g. one instance's state changes). */
    orderingKey: text("ordering_key"),
    payload: jsonb("payload").notNull(),
    status: webhookDeliveryStatus("status").notNull().default("pending"),
    /** Attempts in the current round (a re-send starts a new round; every attempt stays in webhook_attempts). */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastStatusCode: integer("last_status_code"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index("webhook_deliveries_order_idx").on(t.endpointId, t.orderingKey, t.seq),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
  ],
);

/** Every attempt to deliver, with what the receiver answered (the console shows them). */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    n: integer("n").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    statusCode: integer("status_code"),
    /** The first 500 characters of the response body. */
    responseExcerpt: text("response_excerpt"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [uniqueIndex("webhook_attempts_n").on(t.deliveryId, t.n)],
);

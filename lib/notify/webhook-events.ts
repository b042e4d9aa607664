import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";

/**
 * The events an organization's webhook endpoints can subscribe to. `webhook.test` is the console's "send a
 * test event" and goes only to the endpoint it was sent from.
 */
export const WEBHOOK_EVENT_TYPES = [
  "instance.state_changed",
  "instance.spot_reclaimed",
  "instance.shutdown_warning",
  "budget.threshold",
  "quota_request.decided",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const TEST_EVENT_TYPE = "webhook.test";

export type WebhookEvent = {
  orgId: string;
  type: WebhookEventType;
  /** Events with the same key reach an endpoint in the order they were emitted (an instance's id). */
  orderingKey?: string | null;
  data: Record<string, unknown>;
  at: Date;
};

/**
 * Fan events out to the organization's enabled endpoints that subscribe to them, in the caller's transaction:
 * a delivery exists if and only if the change that caused it commits (the same outbox rule as email). One
 * statement whatever the number of events and endpoints; nothing is written when no endpoint listens.
 */
export async function emitWebhookEvents(exec: Executor, events: WebhookEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e) => ({
    org_id: e.orgId,
    type: e.type,
    ordering_key: e.orderingKey ?? null,
    payload: { type: e.type, timestamp: e.at.toISOString(), data: e.data },
    at: e.at.toISOString(),
  }));
  await exec.execute(sql`
    insert into webhook_deliveries (endpoint_id, org_id, event_type, ordering_key, payload, created_at, next_attempt_at)
    select w.id, e.org_id, e.type, e.ordering_key, e.payload, e.at, e.at
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as e(org_id uuid, type text, ordering_key text, payload jsonb, at timestamptz)
    join webhook_endpoints w on w.org_id = e.org_id and w.enabled and e.type = any(w.event_types)
    order by e.at`);
}

/**
 * The instance-transition fan-out as SQL over a set of just-written instance_events rows (`events` names a
 * CTE with org_id, instance_id, from_state, to_state, reason, reason_code, reason_params, at), so the provisioning
 * lifecycle adds webhook deliveries to its event insert without another round trip. A transition gives
 * `instance.state_changed`; one whose reason is a spot reclaim also gives `instance.spot_reclaimed`.
 * `instancesFrom` is where the instances' names are read: the table, or (for an instance inserted by the same
 * statement, which the table does not show it yet) a CTE with its id and name.
 */
export function instanceTransitionFanOut(events: SQL, instancesFrom: SQL = sql`instances`): SQL {
  return sql`
    insert into webhook_deliveries (endpoint_id, org_id, event_type, ordering_key, payload, created_at, next_attempt_at)
    select w.id, ev.org_id, t.type, ev.instance_id::text,
           jsonb_build_object(
             'type', t.type,
             'timestamp', to_char(ev.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'data', jsonb_build_object(
               'instance', jsonb_build_object('id', i.id, 'name', i.name, 'state', ev.to_state),
               'previousState', ev.from_state,
               'reason', jsonb_build_object('code', ev.reason_code, 'params', ev.reason_params, 'text', ev.reason))),
           ev.at, ev.at
    from ${events} ev
    join ${instancesFrom} i on i.id = ev.instance_id
    join webhook_endpoints w on w.org_id = ev.org_id and w.enabled
    cross join lateral (values ('instance.state_changed'),
      (case when ev.reason_code in ('spot_reclaimed', 'spot_interrupted', 'spot_reclaimed_for_capacity')
            then 'instance.spot_reclaimed' end)) as t(type)
    where t.type is not null and t.type = any(w.event_types)
    order by ev.at`;
}

/** Which webhook event an in-console notification also is (lib/notify notifications), if any. */
export function notificationEventType(kind: string): WebhookEventType | null {
  if (kind.startsWith("budget.")) return "budget.threshold";
  if (kind === "autoshutdown.warning") return "instance.shutdown_warning";
  return null;
}

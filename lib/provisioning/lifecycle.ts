import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { type AuditEntry, auditInsertManySql } from "@/lib/audit";
import { type Actor, type Ctx, InvalidStateError, nowOf } from "@/lib/core";
import type { Executor } from "@/lib/db/client";
import { executePrepared, jsonRecordOf, rowFromDriver } from "@/lib/db/prepared";
import { instances } from "@/lib/db/schema";
import { instanceTransitionFanOut } from "@/lib/notify";
import { type EventReason, reasonColumns } from "./event-reasons";
import { pgArray, uuidArray } from "./sql";
import { canTransition, holdsCapacity, type InstanceState } from "./states";
import type { Instance } from "./types";

/** Columns a transition may set together with the state. Absent = unchanged; null = cleared. */
export type TransitionPatch = {
  nodeId?: string | null;
  stateDeadline?: Date | null;
  startedAt?: Date | null;
  stoppedAt?: Date | null;
  queuedAt?: Date | null;
  connection?: Record<string, string> | null;
  stateReason?: string | null;
  provisionFailure?: string | null;
  spotCheckedUntil?: Date | null;
  /** The engine's workload id (engine-placed regions): null when the workload is gone for good. */
  providerRef?: string | null;
  /** Placed beyond nominal on borrowed cohort capacity (lib/quotas). */
  borrowed?: boolean;
  queueReason?: { code: string; params: Record<string, string | number> } | null;
  /** Preempted for this higher-priority instance of its organization (its quota policy); null clears it. */
  preemptedFor?: string | null;
};

export type Transition = {
  id: string;
  orgId: string;
  from: InstanceState;
  to: InstanceState;
  /** Why, as data (`why(code, params)`) or, for an operator's or a provider's own words, as text. */
  reason: string | EventReason;
  patch?: TransitionPatch;
  /** When it happened, if not now (e.g. a deadline that passed before the worker looked). */
  at?: Date;
};

export type EventActorKind = "user" | "api" | "system" | "scheduler" | "provider" | "policy";

export function eventActorKind(actor: Actor): EventActorKind {
  if (actor.kind === "user") return actor.tokenOrgId ? "api" : "user";
  if (actor.name === "scheduler" || actor.name === "provider" || actor.name === "policy") return actor.name;
  return "system";
}

/** The patch's columns: key, column, PostgreSQL type. */
const PATCH_COLUMNS: [keyof TransitionPatch, string, string][] = [
  ["nodeId", "node_id", "uuid"],
  ["stateDeadline", "state_deadline", "timestamptz"],
  ["startedAt", "started_at", "timestamptz"],
  ["stoppedAt", "stopped_at", "timestamptz"],
  ["queuedAt", "queued_at", "timestamptz"],
  ["connection", "connection", "jsonb"],
  ["stateReason", "state_reason", "text"],
  ["provisionFailure", "provision_failure", "text"],
  ["spotCheckedUntil", "spot_checked_until", "timestamptz"],
  ["providerRef", "provider_ref", "text"],
  ["borrowed", "borrowed", "boolean"],
  ["queueReason", "queue_reason", "jsonb"],
  ["preemptedFor", "preempted_for", "uuid"],
];

/** A value as an element of an array literal: dates as ISO text, objects as JSON, absent/null as null. */
function toArrayElement(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

type ReasonRow = ReturnType<typeof reasonColumns>;
const fromOf = (t: Transition) => t.from;
const toOf = (t: Transition) => t.to;
const reasonText = (r: ReasonRow) => r.reason;
const reasonCode = (r: ReasonRow) => r.reason_code;
const reasonParams = (r: ReasonRow) => toArrayElement(r.reason_params);
const patchValue = (key: keyof TransitionPatch) => (t: Transition) => toArrayElement(t.patch?.[key]);
const atOf = (now: Date) => (t: Transition) => (t.at ?? now).toISOString();

function assertLegal(t: Transition): void {
  if (!canTransition(t.from, t.to)) {
    throw new InvalidStateError(`Cannot move an instance from "${t.from}" to "${t.to}"`, {
      from: t.from,
      to: t.to,
    });
  }
}

/**
 * The one place that changes an instance's state. For each transition, in the caller's transaction: checks
 * the transition table, updates the row only if it is still in `from` (optimistic check against concurrent
 * changes), writes an instance_events row, and releases the instance's GPU allocations when it leaves a
 * capacity-holding state. Returns the ids that moved; the others had changed state meanwhile.
 */
export async function applyTransitions(
  exec: Executor,
  ctx: Pick<Ctx, "actor" | "now">,
  items: Transition[],
): Promise<Set<string>> {
  if (items.length === 0) return new Set();
  for (const t of items) assertLegal(t);
  const now = nowOf(ctx);
  // One update for the whole batch, its values as typed arrays (unnest). A column whose value is the same for
  // every item (a tick's 6,650 placements share their states, most patch values and the reason's code) is
  // sent once, as a parameter, instead of as an array of copies. A patch key no item sets leaves its column
  // out; one only some items set is applied where a parallel boolean array says so.
  const cols: SQL[] = [sql`${uuidArray(items.map((t) => t.id))}`];
  const names = ["id"];
  const col = (name: string, type: string, values: (string | null)[]): SQL => {
    const first = values[0] ?? null;
    if (values.every((v) => v === first)) return sql`${first}::${sql.raw(type)}`;
    cols.push(sql`${pgArray(values)}::${sql.raw(type)}[]`);
    names.push(name);
    return sql.raw(`v.${name}`);
  };
  const fromState = col("from_state", "instance_state", items.map(fromOf));
  const toState = col("to_state", "instance_state", items.map(toOf));
  const sets: SQL[] = [sql`state = ${toState}`, sql`updated_at = ${now}`, sql`engine_queue = null`];
  for (const [key, column, type] of PATCH_COLUMNS) {
    const has = items.map((t) => t.patch?.[key] !== undefined);
    if (!has.includes(true)) continue;
    const value = col(column, type, items.map(patchValue(key)));
    if (has.every(Boolean)) {
      sets.push(sql`${sql.raw(column)} = ${value}`);
    } else {
      cols.push(sql`${`{${has.join(",")}}`}::boolean[]`);
      names.push(`has_${column}`);
      sets.push(
        sql`${sql.raw(column)} = case when v.has_${sql.raw(column)} then ${value} else i.${sql.raw(column)} end`,
      );
    }
  }
  // The events ride in the same statement: each moved row returns its event's columns (its organization is
  // the row's own), so the events and their webhook deliveries (lib/notify) are written from what moved, in
  // the items' order (ordinality), without a second round trip or a second copy of the ids.
  const reasons = items.map((t) => reasonColumns(t.reason));
  const evReason = col("ev_reason", "text", reasons.map(reasonText));
  const evCode = col("ev_reason_code", "text", reasons.map(reasonCode));
  const evParams = col("ev_reason_params", "jsonb", reasons.map(reasonParams));
  const evAt = items.some((t) => t.at !== undefined)
    ? col("ev_at", "timestamptz", items.map(atOf(now)))
    : sql`${now}::timestamptz`;
  const updated = await exec.execute<{ id: string }>(sql`
    with moved as (
      update instances i set ${sql.join(sets, sql`, `)}
      from unnest(${sql.join(cols, sql`, `)}) with ordinality as v(${sql.raw(names.join(", "))}, n)
      where i.id = v.id and i.state = ${fromState}
      returning i.org_id, i.id as instance_id, ${fromState} as from_state, ${toState} as to_state,
        ${evReason} as reason, ${evCode} as reason_code, ${evParams} as reason_params, ${evAt} as at, v.n),
    written as (${insertEventsFrom(ctx.actor, sql`moved e`, sql`e.n`)}),
    fanned as (${instanceTransitionFanOut(sql`written`)})
    select instance_id as id from moved`);
  const moved = new Set(updated.rows.map((r) => r.id));
  const done = items.filter((t) => moved.has(t.id));
  if (done.length === 0) return moved;

  const releasing = done.filter((t) => holdsCapacity(t.from) && !holdsCapacity(t.to));
  if (releasing.length > 0) {
    await exec.execute(sql`
      update gpu_allocations set released_at = ${now}
      where instance_id = any(${uuidArray(releasing.map((t) => t.id))}) and released_at is null`);
  }
  return moved;
}

type EventRow = {
  org_id: string;
  instance_id: string;
  from_state: string | null;
  to_state: string;
  at: string;
} & ReturnType<typeof reasonColumns>;

type ActorEventRow = EventRow & { actor_user_id: string | null; actor_kind: EventActorKind };

/** The insert of instance_events rows, each by its own actor, returning what the webhook fan-out reads. */
function insertEventsByActors(events: ActorEventRow[]): SQL {
  const col = (f: (e: ActorEventRow) => unknown) => pgArray(events.map((e) => toArrayElement(f(e))));
  return insertEventsSql(
    sql`unnest(${col((e) => e.org_id)}::uuid[], ${col((e) => e.instance_id)}::uuid[],
                ${col((e) => e.from_state)}::instance_state[], ${col((e) => e.to_state)}::instance_state[],
                ${col((e) => e.reason)}::text[], ${col((e) => e.reason_code)}::text[],
                ${col((e) => e.reason_params)}::jsonb[], ${col((e) => e.actor_user_id)}::uuid[],
                ${col((e) => e.actor_kind)}::text[], ${col((e) => e.at)}::timestamptz[])
      as e(org_id, instance_id, from_state, to_state, reason, reason_code, reason_params, actor_user_id,
           actor_kind, at)`,
    { userId: sql`e.actor_user_id`, kind: sql`e.actor_kind` },
  );
}

/**
 * The events of `source` (a relation `e` with the columns org_id, instance_id, from_state, to_state, reason,
 * reason_code, reason_params, at), by `actor`, in `order` when given; returns what the webhook fan-out reads.
 */
function insertEventsFrom(actor: Actor, source: SQL, order?: SQL): SQL {
  return insertEventsSql(
    source,
    {
      userId: sql`${actor.kind === "user" ? actor.userId : null}::uuid`,
      kind: sql`${eventActorKind(actor)}`,
    },
    order,
  );
}

/** The events of `source` by the actor `by` names (parameters, or columns of `source`). */
function insertEventsSql(source: SQL, by: { userId: SQL; kind: SQL }, order?: SQL): SQL {
  return sql`
    insert into instance_events (org_id, instance_id, from_state, to_state, reason, reason_code, reason_params,
                                 actor_user_id, actor_kind, at)
    select e.org_id, e.instance_id, e.from_state, e.to_state, e.reason, e.reason_code, e.reason_params,
           ${by.userId}, ${by.kind}, e.at
    from ${source}${order ? sql` order by ${order}` : sql``}
    returning org_id, instance_id, from_state, to_state, reason, reason_code, reason_params, at`;
}

/** One transition; InvalidStateError when it is illegal or the instance changed state meanwhile. */
export async function applyTransition(
  exec: Executor,
  ctx: Pick<Ctx, "actor" | "now">,
  item: Transition,
): Promise<void> {
  const moved = await applyTransitions(exec, ctx, [item]);
  if (!moved.has(item.id)) {
    throw new InvalidStateError(
      `The instance is no longer "${item.from}"; it changed while this was being done. Reload and try again.`,
      { from: item.from, to: item.to },
    );
  }
}

/** One launch for insertLaunched: its row, who launched it and when, and its audit row. */
export type Launched = {
  ctx: Pick<Ctx, "actor" | "now">;
  values: typeof instances.$inferInsert & { id: string };
  audit: AuditEntry;
};

/**
 * Launches accepted at once, as one statement whatever their number (launches coalesced into one transaction
 * share it: launchTogether in launch.ts): each row (inserted already in "queued"), its first two events
 * (created in "requested", then requested → queued) by its own actor, with the transition's webhook
 * deliveries, and its audit row; `alsoRead`, a one-row query returned beside the rows as JSON (a single
 * launch's quota standing: the statement's snapshot does not show the rows it inserts, so that count leaves
 * them out). The transition table is still the judge: the same check applyTransitions makes. The ids are the
 * callers', so the events can name the rows the same statement writes; the webhook fan-out reads their names
 * from the inserted rows (the table does not show them to the statement that writes them). Every launch must
 * set the same columns (the others get their defaults). Returns the rows in the order given.
 */
export async function insertLaunched(
  exec: Executor,
  launched: Launched[],
  created: string | EventReason,
  accepted: string | EventReason,
  alsoRead?: SQL,
): Promise<{ instances: Instance[]; alsoRead: unknown }> {
  if (launched.length === 0) throw new Error("insertLaunched needs a launch");
  let columnList: string | undefined;
  const records: Record<string, unknown>[] = [];
  const events: ActorEventRow[] = [];
  // The same two steps for every launch.
  const steps = [
    { from_state: null, to_state: "requested", ...reasonColumns(created) },
    { from_state: "requested", to_state: "queued", ...reasonColumns(accepted) },
  ];
  for (const { ctx, values } of launched) {
    assertLegal({ id: values.id, orgId: values.orgId, from: "requested", to: "queued", reason: accepted });
    if (values.state !== "queued") throw new Error("insertLaunched writes an instance in queued");
    // The row is one jsonb element (jsonb_populate_recordset): building a 40-parameter insert through the
    // query builder cost more than running it. The column list follows the keys given, so the others get
    // defaults; a launch that set other columns would get another's defaults as nulls, hence the check.
    const record = jsonRecordOf(instances, values);
    const keys = Object.keys(record).sort().join(", ");
    columnList ??= keys;
    if (keys !== columnList) throw new Error("insertLaunched: every launch must set the same columns");
    records.push(record);
    const at = nowOf(ctx).toISOString();
    const by = {
      actor_user_id: ctx.actor.kind === "user" ? ctx.actor.userId : null,
      actor_kind: eventActorKind(ctx.actor),
    };
    for (const e of steps) events.push({ ...e, org_id: values.orgId, instance_id: values.id, at, ...by });
  }
  const columns = sql.raw(columnList ?? "");
  const audit = auditInsertManySql(launched.map((l) => ({ actor: l.ctx.actor, entry: l.audit })));
  const res = await executePrepared<Record<string, unknown>>(
    exec,
    sql`
    with ins as (
      insert into instances (${columns})
      select ${columns} from jsonb_populate_recordset(null::instances, ${JSON.stringify(records)}::jsonb)
      returning *),
    written as (${insertEventsByActors(events)}),
    fanned as (${instanceTransitionFanOut(
      sql`(select * from written where from_state is not null)`,
      sql`(select id, name from ins)`,
    )}),
    audited as (${audit})
    select ins.*, ${alsoRead ? sql`(select to_jsonb(r) from (${alsoRead}) as r)` : sql`null`} as also_read
    from ins`,
  );
  const byId = new Map(res.rows.map((raw) => [raw.id as string, raw]));
  const rows = launched.map((l) => {
    const raw = byId.get(l.values.id);
    if (!raw) throw new Error("instance insert returned nothing");
    return raw;
  });
  return {
    instances: rows.map((raw) => rowFromDriver(instances, raw)),
    alsoRead: rows[0]?.also_read,
  };
}

/**
 * Give running instances a notice (running → preempting, deadline `noticeMs` from now): a reclaim, a spot
 * preemption for capacity, a preemption for higher-priority work. `ids` are read again here (only those still
 * running move); returns the ids that moved.
 */
export async function giveNotice(
  exec: Executor,
  ctx: Pick<Ctx, "actor" | "now">,
  ids: string[],
  notice: { reason: EventReason; stateReason: string; noticeMs: number; patch?: TransitionPatch },
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await exec.execute<{ id: string; org_id: string }>(
    sql`select id, org_id from instances where id = any(${uuidArray(ids)}) and state = 'running'`,
  );
  const deadline = new Date(nowOf(ctx).getTime() + notice.noticeMs);
  return applyTransitions(
    exec,
    ctx,
    rows.rows.map((r) => ({
      id: r.id,
      orgId: r.org_id,
      from: "running" as const,
      to: "preempting" as const,
      reason: notice.reason,
      patch: { ...notice.patch, stateDeadline: deadline, stateReason: notice.stateReason },
    })),
  );
}

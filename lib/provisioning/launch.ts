import "server-only";
import { randomInt, randomUUID } from "node:crypto";
import { and, eq, type SQL } from "drizzle-orm";
import { judgeOrgAccess, orgAccessSql, requireOrgAccessOrSystem, roleAtLeast } from "@/lib/access";
import type { AuditEntry } from "@/lib/audit";
import { checkAutoShutdown, pickPolicy, resolvePolicy } from "@/lib/autoshutdown";
import { assertBudgetAllowsLaunch } from "@/lib/budgets";
import {
  ConflictError,
  type Ctx,
  checkpoint,
  DomainError,
  type FieldMessage,
  fieldMessageWith,
  NotFoundError,
  nowOf,
  parseInput,
  ValidationError,
} from "@/lib/core";
import { CommitUnknownError, readCommittedTxFrom, readCommittedTxWith, type Tx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { instances } from "@/lib/db/schema";
import {
  type AdmissionStandingRow,
  admissionStandingSql,
  assertQuotaAdmits,
  type QuotaKey,
  refuseIfSuspended,
} from "@/lib/quotas";
import { coalescer } from "./coalescer";
import { why } from "./event-reasons";
import { LAUNCH_FIELD_MESSAGES } from "./field-messages";
import { acceleratorOfVendor } from "./images";
import { type FactsRow, launchFactsOf, launchFactsQuery, runLaunchFacts } from "./launch-facts";
import { insertLaunched, type Launched } from "./lifecycle";
import { currentPrice, type PricingModelDb } from "./offerings";
import { preemptForPriority } from "./preempt";
import { reservationRoom, reservedTermWithRoom } from "./reservations";
import { DEFAULT_PRIORITY, type LaunchSpec, launchSpecSchema } from "./schemas";
import { advisoryXactLock } from "./sql";
import type { Instance } from "./types";

export type LaunchResult = {
  instance: Instance /** True when the idempotency key matched an earlier launch. */;
  replayed: boolean;
};

type FieldIssues = Record<string, FieldMessage[]>;
const M = LAUNCH_FIELD_MESSAGES;

function addError(errors: FieldIssues, field: string, message: FieldMessage) {
  errors[field] = [...(errors[field] ?? []), message];
}

/** The refusal for what was collected: English texts for the API, keys and parameters for the console. */
function invalid(errors: FieldIssues): ValidationError {
  const texts = Object.fromEntries(Object.entries(errors).map(([f, l]) => [f, l.map((m) => m.text)]));
  return new ValidationError(texts, undefined, errors);
}

/**
 * Launch a notebook or container: validates the spec, then in one transaction checks the role, the project,
 * the offering and its current price, the region's data-residency policy, the image, the reservation (for
 * reserved) and the quota (under a per org × GPU model × region lock), records the instance requested → queued
 * and returns at once; the scheduler places it. Any refusal writes nothing. When launches pile up, those of
 * different organizations share one transaction and one insert (launchTogether); each is judged exactly as
 * it would be alone.
 */
export async function launch(ctx: Ctx, orgSlug: string, raw: unknown): Promise<LaunchResult> {
  const now = nowOf(ctx);
  let spec: LaunchSpec;
  try {
    spec = parseInput(launchSpecSchema, raw);
  } catch (invalidBody) {
    // Authorize before validating: a viewer's (or a stranger's) bad body is a 403/404, not a field list.
    await requireOrgAccessOrSystem(ctx, orgSlug, "member");
    throw invalidBody;
  }
  // One read for the access gate and every fact below (round trips were most of launch's cost), judged in
  // the order they were checked one statement each; it travels with the transaction's BEGIN.
  const access = orgAccessSql(ctx, orgSlug);
  if (!access) throw new NotFoundError("Organization");
  const factsQuery = launchFactsQuery({
    access,
    project: spec.project,
    regionCode: spec.region,
    instanceTypeId: spec.instanceType,
    imageId: spec.image,
    pricingModel: spec.pricingModel === "reserved" ? null : spec.pricingModel,
    now,
  });
  const request: LaunchRequest = { ctx, orgSlug, spec, factsQuery, now };
  // In the caller's transaction, with an idempotency key (its lock and lookup) or for a reserved term (its
  // room is counted with the row written): alone, always.
  const alone = ctx.tx !== undefined || spec.idempotencyKey !== undefined || spec.pricingModel === "reserved";
  return alone || !batching.on ? launchAlone(request) : together.submit(request);
}

/** A launch whose spec was read and whose facts statement is built. */
type LaunchRequest = { ctx: Ctx; orgSlug: string; spec: LaunchSpec; factsQuery: SQL; now: Date };

/** What launch writes, once every check before the write has passed. */
type LaunchPlan = {
  values: Launched["values"];
  audit: AuditEntry;
  quota: QuotaKey & { projectId: string; gpuModelName: string; slices: number };
  pricingModel: PricingModelDb;
};

/** One launch in a transaction of its own. */
function launchAlone(r: LaunchRequest): Promise<LaunchResult> {
  return readCommittedTxFrom(r.ctx, { query: r.factsQuery, run: runLaunchFacts }, async (c, rows) => {
    const judged = await planLaunch(c, r.spec, rows, r.now);
    if ("instance" in judged) return judged;
    const { tx } = c;
    const { quota } = judged;
    // The quota lock (org × GPU model × region) was taken by the facts statement, so the statement below —
    // a later snapshot — sees every launch that held it before this one, committed. It writes the row straight
    // in "queued" with both events, their webhook deliveries and the audit row (insertLaunched checks the
    // transition table) and reads the quota standing beside them (without this row: the statement does not
    // see what it inserts). The section serialized per key runs from the facts statement to the commit: the
    // checks (more reads only for reserved, an auto-shutdown policy or a budget cap), this statement.
    const {
      instances: [row],
      alsoRead: standing,
    } = await insertLaunched(
      tx,
      [{ ctx: c, values: judged.values, audit: judged.audit }],
      why("launch_requested"),
      why("accepted"),
      admissionStandingSql(quota),
    );
    if (!row) throw new Error("instance insert returned nothing");
    if (judged.pricingModel !== "on_demand" && judged.pricingModel !== "spot") {
      const room = await reservationRoom(tx, { ...quota, now: r.now });
      if ((room.get(judged.pricingModel) ?? -1) < 0) {
        throw invalid({ pricingModel: [noReservation(quota.gpuModelName, quota.regionCode)] });
      }
    }
    const admitted = await admit(tx, judged, standing as AdmissionStandingRow);
    // The organization's policy let it in by preempting its own lower-priority work: that work gets notice now.
    await preemptForPriority(tx, c, admitted.preempt, row);
    return { instance: row, replayed: false };
  });
}

/**
 * Launches of different organizations (none in a caller's transaction, none with an idempotency key or a
 * reserved term) in one transaction: BEGIN and every launch's facts statement leave together, in
 * organization order (each takes its quota lock, so two such transactions take theirs in the same order and
 * cannot deadlock); each launch is judged as launchAlone judges it, reads its quota standing in a later
 * statement (after its lock, before any row is written) and is admitted or refused on its own; the admitted
 * ones are written by one insertLaunched, then any preemption their policy chose. A refusal (a DomainError)
 * refuses that launch only. Anything else — a failed statement, a bug — rolls the whole transaction back and
 * runs every launch again alone, so none is lost or written twice. Per-launch database work was mostly
 * per-statement cost (planning aside: executor start, triggers, commit, the round trips): one statement
 * for eight launches costs a fraction of eight.
 */
async function launchTogether(requests: LaunchRequest[]): Promise<PromiseSettledResult<LaunchResult>[]> {
  const order = requests
    .map((_, i) => i)
    .sort((a, b) => byCodeUnits(orgKey(requests[a]), orgKey(requests[b])));
  try {
    const settled = await readCommittedTxWith(
      order.map((i) => ({ query: (requests[i] as LaunchRequest).factsQuery, run: runLaunchFacts })),
      async (tx, reads) => {
        const write = insertTogether(tx, order.length);
        const results = await Promise.allSettled(
          order.map((i, k) =>
            write.settles(k, async () => {
              const r = requests[i] as LaunchRequest;
              const c = { ...r.ctx, tx };
              const { rows } = await (reads[k] as (typeof reads)[number]);
              const judged = await planLaunch(c, r.spec, rows, r.now);
              if ("instance" in judged) return judged;
              const { quota } = judged;
              const standing = await executePrepared<AdmissionStandingRow>(tx, admissionStandingSql(quota));
              const admitted = await admit(tx, judged, standing.rows[0]);
              const row = await write.join(k, { ctx: c, values: judged.values, audit: judged.audit });
              await preemptForPriority(tx, c, admitted.preempt, row);
              return { instance: row, replayed: false };
            }),
          ),
        );
        const failed = results.find((x) => x.status === "rejected" && !(x.reason instanceof DomainError));
        if (failed) throw (failed as PromiseRejectedResult).reason;
        await checkpoint("launch.together.written");
        return results;
      },
    );
    const out: PromiseSettledResult<LaunchResult>[] = new Array(requests.length);
    order.forEach((i, k) => {
      out[i] = settled[k] as PromiseSettledResult<LaunchResult>;
    });
    return out;
  } catch (error) {
    // COMMIT failed: the launches may be written, so running them again could write them twice.
    if (error instanceof CommitUnknownError) throw error;
    batching.fallbacks++;
    return Promise.allSettled(requests.map(launchAlone));
  }
}

/** The quota's verdict on a planned launch, from its standing read without the launch's own row. */
function admit(tx: Tx, plan: LaunchPlan, standing: AdmissionStandingRow | undefined) {
  return assertQuotaAdmits(tx, {
    ...plan.quota,
    standing,
    priority: plan.values.priority ?? DEFAULT_PRIORITY,
    instanceId: plan.values.id,
  });
}

const orgKey = (r: LaunchRequest | undefined) => r?.orgSlug ?? "";
// Not localeCompare: every process must order the locks the same way, whatever its locale.
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The one insert of launchTogether's transaction: each launch either joins it (its row is written with the
 * others') or ends without joining (refused); once every launch has done one or the other, the joined ones
 * are written by one statement and each gets its row.
 */
function insertTogether(tx: Tx, n: number) {
  const joined = new Map<
    number,
    { launched: Launched; resolve: (i: Instance) => void; reject: (e: unknown) => void }
  >();
  const ended = new Set<number>();
  let written = false;
  const writeIfAllThere = () => {
    if (written || joined.size + ended.size < n) return;
    written = true;
    if (joined.size === 0) return;
    const members = [...joined.values()];
    insertLaunched(
      tx,
      members.map((m) => m.launched),
      why("launch_requested"),
      why("accepted"),
    ).then(
      ({ instances: rows }) => {
        members.forEach((m, i) => {
          m.resolve(rows[i] as Instance);
        });
      },
      (error) => {
        for (const m of members) m.reject(error);
      },
    );
  };
  return {
    join: (k: number, launched: Launched) =>
      new Promise<Instance>((resolve, reject) => {
        joined.set(k, { launched, resolve, reject });
        writeIfAllThere();
      }),
    /** Runs launch `k`'s part; if it ends before joining, the others no longer wait for it. */
    settles: async <T>(k: number, part: () => Promise<T>): Promise<T> => {
      try {
        return await part();
      } catch (error) {
        // Refused after its row was written (with the others'): not a refusal of this launch alone, since
        // committing would keep the row. The group fails and every launch runs again alone.
        if (joined.has(k)) throw new Error("a launch failed after the group wrote its row", { cause: error });
        throw error;
      } finally {
        if (!joined.has(k)) {
          ended.add(k);
          writeIfAllThere();
        }
      }
    },
  };
}

/** Launch's coalescing (tests and the bench turn it off to compare; `fallbacks` counts whole-group reruns). */
export const batching = { on: true, fallbacks: 0 };

// Four transactions at a time before launches wait to go together: below that a launch runs alone at once.
const together = coalescer<LaunchRequest, LaunchResult>({
  maxMembers: 8,
  maxInFlight: 4,
  keyOf: (r) => r.orgSlug,
  runOne: launchAlone,
  runMany: launchTogether,
});

/** Launches run together so far (groups, launches in them, the largest group). */
export const launchGroups = together.stats;

/**
 * Every check launch makes before it writes, on its facts statement's row: the organization and role, the
 * idempotency key (an earlier launch with it is returned), suspension, the fields, the reservation, the
 * auto-shutdown policy, a budget cap. Throws the refusal; returns what to write.
 */
async function planLaunch(
  c: Ctx & { tx: Tx },
  spec: LaunchSpec,
  rows: FactsRow[],
  now: Date,
): Promise<LaunchResult | LaunchPlan> {
  const { tx } = c;
  const facts = launchFactsOf(rows[0]);
  const { org, role } = judgeOrgAccess(c, facts.access, "member");
  refuseIfSuspended(facts.suspensionReason);

  if (spec.idempotencyKey) {
    await tx.execute(advisoryXactLock("forja:launch-key", `${org.id}/${spec.idempotencyKey}`));
    const [prior] = await tx
      .select()
      .from(instances)
      .where(and(eq(instances.orgId, org.id), eq(instances.idempotencyKey, spec.idempotencyKey)));
    if (prior) return { instance: replayOrConflict(prior, spec), replayed: true };
  }

  const errors: FieldIssues = {};
  if (spec.priority > DEFAULT_PRIORITY && !roleAtLeast(role, "admin")) {
    addError(errors, "priority", fieldMessageWith(M.priorityAdminOnly, { max: DEFAULT_PRIORITY }));
  }
  const projectId = facts.projectId;
  if (!projectId) throw new NotFoundError("Project");

  const { region, offering, image } = facts;
  if (!region?.active) addError(errors, "region", fieldMessageWith(M.regionUnknown, {}));
  else if (org.allowedJurisdictions.length > 0 && !org.allowedJurisdictions.includes(region.jurisdiction)) {
    addError(
      errors,
      "region",
      fieldMessageWith(M.residency, {
        allowed: org.allowedJurisdictions.join(", "),
        region: region.code,
        jurisdiction: region.jurisdiction,
      }),
    );
  }
  if (!offering) addError(errors, "instanceType", fieldMessageWith(M.instanceTypeUnknown, {}));
  if (!image?.active) addError(errors, "image", fieldMessageWith(M.imageUnknown, {}));
  else if (!image.kinds.includes(spec.kind)) {
    addError(errors, "image", fieldMessageWith(M.imageKind, { image: image.name, kind: spec.kind }));
  } else if (offering && image.accelerator !== acceleratorOfVendor(offering.vendor)) {
    addError(
      errors,
      "image",
      fieldMessageWith(M.imageAccelerator, {
        image: image.name,
        accelerator: image.accelerator,
        vendor: offering.vendor,
      }),
    );
  }
  if (!offering || !region || errors.region) throw invalid(errors);

  const slices = offering.gpuCount * offering.slicesPerGpu;
  const notOffered = (model: PricingModelDb) =>
    fieldMessageWith(M.notOffered, {
      instanceType: offering.instanceTypeId,
      pricing: model.replace("_", "-"),
      region: region.code,
    });
  // The price was read with the facts; nothing is written before every field is checked.
  if (spec.pricingModel !== "reserved" && !facts.price) {
    addError(errors, "instanceType", notOffered(spec.pricingModel));
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);

  let pricingModel: PricingModelDb = spec.pricingModel === "reserved" ? "reserved_1y" : spec.pricingModel;
  if (spec.pricingModel === "reserved") {
    // A term with room, for a clear field error (under the quota lock, which the facts statement took);
    // checked again with the row written.
    const term = await reservedTermWithRoom(tx, {
      orgId: org.id,
      gpuModelId: offering.gpuModelId,
      regionCode: region.code,
      slices,
      now,
    });
    if (!term) addError(errors, "pricingModel", noReservation(offering.gpuModelName, region.code));
    else if (!(await currentPrice(tx, offering.instanceTypeId, region.code, term, now))) {
      addError(errors, "pricingModel", notOffered(term));
    } else pricingModel = term;
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);

  // Auto-shutdown settings get the policy's defaults; members may not go beyond its limits.
  const policy = facts.hasPolicies
    ? await resolvePolicy(tx, org.id, projectId, offering.gpuModelId)
    : pickPolicy([], projectId, offering.gpuModelId);
  const autoShutdown = checkAutoShutdown(policy, spec.autoShutdown, role, spec.kind);

  // Budget caps (block_launches / stop_instances at 100 %) refuse new work before anything is written.
  if (facts.budgetCapped) await assertBudgetAllowsLaunch(tx, org.id, projectId, now);

  if (!facts.quotaLocked) throw new Error("launch facts did not take the quota lock");
  const id = randomUUID();
  return {
    values: {
      id,
      orgId: org.id,
      projectId,
      createdBy: c.actor.kind === "user" ? c.actor.userId : null,
      name: spec.name,
      kind: spec.kind,
      state: "queued",
      regionCode: region.code,
      instanceTypeId: offering.instanceTypeId,
      gpuModelId: offering.gpuModelId,
      gpuCount: offering.gpuCount,
      slicesPerGpu: offering.slicesPerGpu,
      pricingModel,
      priority: spec.priority,
      imageId: spec.image,
      command: spec.command ?? null,
      args: spec.args ?? null,
      env: spec.env ?? null,
      exposedPort: spec.exposedPort ?? null,
      diskGib: spec.diskGib,
      workload: spec.workload ?? defaultWorkload(spec),
      autoShutdown,
      autoRecover: spec.autoRecover,
      maxRuntimeMinutes: spec.maxRuntimeMinutes ?? null,
      idempotencyKey: spec.idempotencyKey ?? null,
      simSeed: randomInt(0, 2 ** 31 - 1),
      createdAt: now,
      queuedAt: now,
      updatedAt: now,
    },
    audit: {
      orgId: org.id,
      action: "instance.launched",
      targetType: "instance",
      targetId: id,
      data: { name: spec.name, instanceType: offering.instanceTypeId, region: region.code, pricingModel },
      at: now,
    },
    quota: {
      orgId: org.id,
      projectId,
      gpuModelId: offering.gpuModelId,
      gpuModelName: offering.gpuModelName,
      regionCode: region.code,
      slices,
    },
    pricingModel,
  };
}

function noReservation(model: string, region: string): FieldMessage {
  return fieldMessageWith(M.noReservation, { model, region });
}

function defaultWorkload(spec: LaunchSpec): "training" | "notebook" | "inference" {
  if (spec.kind === "notebook") return "notebook";
  return spec.exposedPort ? "inference" : "training";
}

/** Same key, same request → the earlier instance; same key for a different request is a client bug. */
function replayOrConflict(prior: Instance, spec: LaunchSpec): Instance {
  const same =
    prior.name === spec.name &&
    prior.kind === spec.kind &&
    prior.regionCode === spec.region &&
    prior.instanceTypeId === spec.instanceType;
  if (!same) {
    throw new ConflictError(
      "This idempotency key was already used for a different launch; use a new key for a new instance",
      { instanceId: prior.id },
    );
  }
  return prior;
}

import "server-only";
import { randomInt, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { judgeOrgAccess, orgAccessSql, requireOrgAccessOrSystem, roleAtLeast } from "@/lib/access";
import { auditInsertSql } from "@/lib/audit";
import { checkAutoShutdown, pickPolicy, resolvePolicy } from "@/lib/autoshutdown";
import { assertBudgetAllowsLaunch } from "@/lib/budgets";
import {
  ConflictError,
  type Ctx,
  type FieldMessage,
  fieldMessageWith,
  NotFoundError,
  nowOf,
  parseInput,
  ValidationError,
} from "@/lib/core";
import { readCommittedTxFrom } from "@/lib/db/client";
import { instances } from "@/lib/db/schema";
import {
  type AdmissionStandingRow,
  admissionStandingSql,
  assertQuotaAdmits,
  refuseIfSuspended,
} from "@/lib/quotas";
import { why } from "./event-reasons";
import { LAUNCH_FIELD_MESSAGES } from "./field-messages";
import { acceleratorOfVendor } from "./images";
import { launchFactsOf, launchFactsQuery, runLaunchFacts } from "./launch-facts";
import { insertLaunched } from "./lifecycle";
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
 * and returns at once; the scheduler places it. Any refusal writes nothing.
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
  return readCommittedTxFrom(ctx, { query: factsQuery, run: runLaunchFacts }, async (c, rows) => {
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
      // checked again below with the row written.
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

    // The quota lock (org × GPU model × region) was taken by the facts statement, so the statement below —
    // a later snapshot — sees every launch that held it before this one, committed. It writes the row straight
    // in "queued" with both events, their webhook deliveries and the audit row (insertLaunched checks the
    // transition table) and reads the quota standing beside them (without this row: the statement does not
    // see what it inserts). The section serialized per key runs from the facts statement to the commit: the
    // checks above (more reads only for reserved, an auto-shutdown policy or a budget cap), this statement.
    if (!facts.quotaLocked) throw new Error("launch facts did not take the quota lock");
    const quotaKey = { orgId: org.id, gpuModelId: offering.gpuModelId, regionCode: region.code };
    const id = randomUUID();
    const { instance: row, alsoRead: standing } = await insertLaunched(
      tx,
      c,
      {
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
      why("launch_requested"),
      why("accepted"),
      {
        alsoWrite: auditInsertSql(c.actor, {
          orgId: org.id,
          action: "instance.launched",
          targetType: "instance",
          targetId: id,
          data: { name: spec.name, instanceType: offering.instanceTypeId, region: region.code, pricingModel },
          at: now,
        }),
        alsoRead: admissionStandingSql({ ...quotaKey, projectId }),
      },
    );
    if (pricingModel !== "on_demand" && pricingModel !== "spot") {
      const room = await reservationRoom(tx, {
        orgId: org.id,
        gpuModelId: offering.gpuModelId,
        regionCode: region.code,
        now,
      });
      if ((room.get(pricingModel) ?? -1) < 0) {
        throw invalid({ pricingModel: [noReservation(offering.gpuModelName, region.code)] });
      }
    }
    const admitted = await assertQuotaAdmits(tx, {
      orgId: org.id,
      projectId,
      gpuModelId: offering.gpuModelId,
      gpuModelName: offering.gpuModelName,
      regionCode: region.code,
      slices,
      standing: standing as AdmissionStandingRow,
      priority: row.priority,
      instanceId: row.id,
    });
    // The organization's policy let it in by preempting its own lower-priority work: that work gets notice now.
    await preemptForPriority(tx, c, admitted.preempt, row);
    return { instance: row, replayed: false };
  });
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

import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, type FieldErrors, NotFoundError, nowOf, parseInput, ValidationError } from "@/lib/core";
import { inTx, type Tx } from "@/lib/db/client";
import { projects, services } from "@/lib/db/schema";
import { assertNotSuspended } from "@/lib/quotas";
import { recordServiceEvent } from "./events";
import { SERVICE_FIELD_MESSAGES as M } from "./field-messages";
import { type ServiceSpec, serviceSpecSchema } from "./schemas";
import type { Service } from "./types";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function newServiceToken(): string {
  return `fsvc_${randomBytes(24).toString("base64url")}`;
}

export function hashServiceToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function add(errors: FieldErrors, field: string, message: string) {
  errors[field] = [...(errors[field] ?? []), message];
}

/**
 * What a replica launch would refuse about the spec itself (region closed or outside data residency, offering
 * not priced there, image not a container for that accelerator), checked once at creation so a service with
 * min 0 is not accepted only to fail on its first request. Quota and budget are per replica (lib/provisioning
 * launch), at scale-up time.
 */
async function checkSpecAgainstCatalog(
  tx: Tx,
  allowed: string[],
  spec: Pick<ServiceSpec, "region" | "instanceType" | "pricingModel" | "image">,
  now: Date,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const res = await tx.execute<{
    region_ok: boolean | null;
    jurisdiction: string | null;
    type_ok: boolean;
    priced: boolean;
    vendor: string | null;
    image_kinds: string[] | null;
    image_accel: string | null;
  }>(sql`
    select (select active from regions where code = ${spec.region}) as region_ok,
           (select jurisdiction from regions where code = ${spec.region}) as jurisdiction,
           exists (select 1 from instance_types where id = ${spec.instanceType}) as type_ok,
           exists (select 1 from prices where instance_type_id = ${spec.instanceType}
                     and region_code = ${spec.region} and pricing_model = ${spec.pricingModel}::pricing_model
                     and effective_from <= ${now}) as priced,
           (select m.vendor from instance_types t join gpu_models m on m.id = t.gpu_model_id
             where t.id = ${spec.instanceType}) as vendor,
           (select kinds from images where id = ${spec.image} and active) as image_kinds,
           (select accelerator from images where id = ${spec.image} and active) as image_accel`);
  const r = res.rows[0];
  if (!r?.region_ok) add(errors, "region", "This region does not exist or is closed");
  else if (allowed.length > 0 && r.jurisdiction && !allowed.includes(r.jurisdiction)) {
    add(
      errors,
      "region",
      `Your organization's data-residency policy allows only ${allowed.join(", ")}; ` +
        `${spec.region} is in ${r.jurisdiction}`,
    );
  }
  if (!r?.type_ok) add(errors, "instanceType", "This instance type does not exist");
  else if (r.region_ok && !r.priced) {
    add(
      errors,
      "instanceType",
      `${spec.instanceType} is not offered ${spec.pricingModel.replace("_", "-")} in ${spec.region}`,
    );
  }
  if (!r?.image_kinds) add(errors, "image", "This image does not exist");
  else if (!r.image_kinds.includes("container")) {
    add(errors, "image", `${spec.image} cannot run as a container; choose another image`);
  } else if (r.vendor && r.image_accel !== (r.vendor === "amd" ? "amd" : "nvidia")) {
    add(errors, "image", `${spec.image} is built for ${r.image_accel} GPUs, not ${r.vendor}`);
  }
  return errors;
}

export type CreateServiceResult = { service: Service; token: string | null };

/**
 * Create a service: validates the spec and what its replicas would need from the catalog, writes the service
 * (desired = min replicas; the autoscaler launches them through the same admission as instances) with an event
 * and an audit row, and returns its token once (only its hash is kept). Any refusal writes nothing.
 */
export async function createService(ctx: Ctx, orgSlug: string, raw: unknown): Promise<CreateServiceResult> {
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const now = nowOf(ctx);
    const { org } = await requireOrgAccess(c, orgSlug, "member");
    const spec = parseInput(serviceSpecSchema, raw);
    await assertNotSuspended(tx, org.id);
    const [project] = await tx
      .select({ id: projects.id })
      .from(projects)
      .where(
        and(
          eq(projects.orgId, org.id),
          UUID.test(spec.project) ? eq(projects.id, spec.project) : eq(projects.slug, spec.project),
        ),
      );
    if (!project) throw new NotFoundError("Project");
    const errors = await checkSpecAgainstCatalog(tx, org.allowedJurisdictions, spec, now);
    const [taken] = await tx
      .select({ id: services.id })
      .from(services)
      .where(and(eq(services.orgId, org.id), eq(services.name, spec.name), isNull(services.deletedAt)));
    if (taken) add(errors, "name", M.nameTaken);
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);

    const token = spec.auth === "token" ? newServiceToken() : null;
    const { name, project: _p, ...stored } = spec;
    const [row] = await tx
      .insert(services)
      .values({
        orgId: org.id,
        projectId: project.id,
        createdBy: c.actor.kind === "user" ? c.actor.userId : null,
        name,
        spec: {
          ...stored,
          command: stored.command ?? null,
          args: stored.args ?? null,
          env: stored.env ?? null,
        },
        tokenHash: token ? hashServiceToken(token) : null,
        desiredReplicas: spec.minReplicas,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error("service insert returned nothing");
    await recordServiceEvent(tx, {
      orgId: org.id,
      serviceId: row.id,
      at: now,
      code: "created",
      params: { min: spec.minReplicas, max: spec.maxReplicas, target: spec.target, metric: spec.metric },
    });
    await writeAudit(tx, c.actor, {
      orgId: org.id,
      action: "service.created",
      targetType: "service",
      targetId: row.id,
      data: { name, instanceType: spec.instanceType, region: spec.region, auth: spec.auth },
      at: now,
    });
    return { service: row, token };
  });
}

import "server-only";
import { dumpYaml } from "@kubernetes/client-node";
import { and, eq } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { type Ctx, InvalidStateError, NotFoundError, UnauthorizedError } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { instanceState, instances, organizations } from "@/lib/db/schema";
import { type KubernetesRegionConfig, loadKubernetesConfig } from "./config";
import { buildReplicaDeployment } from "./deployments";
import { buildManifests, tokenSecret } from "./manifests";
import { namespaceFor } from "./names";
import { loadRegionInstances } from "./records";
import { loadReplicaServices } from "./replica-sync";

/** What the notebook token's Secret carries in an export: the key, never the value. */
export const REDACTED = "<redacted>";

export type ManifestExport = { region: string; namespace: string; objects: Record<string, unknown>[] };

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The objects Forja applies for the instance's current run, for review. Who: the organization's admins and
 * owners, and platform operators; members and viewers are refused (Forbidden). The notebook token is never in
 * them (its Secret is shown with the value redacted). Another organization's instance is NotFound; one whose
 * region is not on Kubernetes is InvalidState (it exists, but has no manifests).
 */
export async function instanceManifests(
  ctx: Ctx,
  orgSlug: string,
  instanceId: string,
  opts: { regions?: KubernetesRegionConfig[] } = {},
): Promise<ManifestExport> {
  if (ctx.actor.kind !== "user") throw new UnauthorizedError();
  const db = readDb(ctx);
  let orgId: string;
  if (ctx.actor.isOperator) {
    const [o] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.slug, orgSlug.slice(0, 200)));
    if (!o) throw new NotFoundError("Organization");
    orgId = o.id;
  } else orgId = (await requireOrgAccess(ctx, orgSlug, "admin")).org.id;
  if (!UUID_RE.test(instanceId)) throw new NotFoundError("Instance");
  const [row] = await db
    .select({ region: instances.regionCode })
    .from(instances)
    .where(and(eq(instances.id, instanceId), eq(instances.orgId, orgId)));
  if (!row) throw new NotFoundError("Instance");
  const cfg = (opts.regions ?? loadKubernetesConfig()).find((c) => c.region === row.region);
  // The instance is there (so not a 404): it just runs on another engine, which takes no manifests.
  if (!cfg)
    throw new InvalidStateError("The instance's region does not run on Kubernetes: it has no manifests");
  const products = (modelId: string) =>
    Object.entries(cfg.productModels)
      .filter(([, m]) => m === modelId)
      .map(([p]) => p);
  const [w] = await loadRegionInstances(db, cfg.region, products, instanceState.enumValues, [instanceId]);
  if (!w) throw new NotFoundError("Instance");
  const m = buildManifests(cfg, w);
  const secret = w.kind === "notebook" ? tokenSecret(cfg, w, REDACTED) : null;
  // A service replica is a Deployment (its pod template is the pod below), with no Service object.
  const service = (await loadReplicaServices(db, [w.instanceId])).get(w.instanceId);
  const workload = service ? [buildReplicaDeployment(cfg, { ...w, service })] : [m.service, m.pod];
  const objects = [m.namespace, secret, m.pvc, ...workload]
    .filter((o) => o !== null)
    .map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);
  return { region: cfg.region, namespace: namespaceFor(cfg, w.orgSlug, w.projectSlug), objects };
}

/** The same objects as one multi-document YAML file (`kubectl apply -f` reads it). */
export function manifestsYaml(e: ManifestExport): string {
  return e.objects.map((o) => dumpYaml(o)).join("---\n");
}

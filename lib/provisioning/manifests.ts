import "server-only";
import type { Ctx } from "@/lib/core";
import type { ManifestExport } from "./providers/kubernetes";

export type { ManifestExport };

/**
 * The Kubernetes objects Forja applies for an instance (providers/kubernetes/export.ts says who may see them), and
 * the same as one multi-document YAML file. Loaded on first use: the Kubernetes client is imported only by the
 * processes that ask.
 */
export async function instanceManifests(
  ctx: Ctx,
  orgSlug: string,
  instanceId: string,
): Promise<ManifestExport> {
  const k8s = await import("./providers/kubernetes");
  return k8s.instanceManifests(ctx, orgSlug, instanceId);
}

export async function instanceManifestsYaml(e: ManifestExport): Promise<string> {
  const k8s = await import("./providers/kubernetes");
  return k8s.manifestsYaml(e);
}

import type { ServiceFormOptions } from "@/components/services/service-form";
import type { Ctx } from "@/lib/core";
import { loadLaunchOptions } from "../instances/new/options";

/** What the service form offers (container images, one entry per instance type), for every page that shows it. */
export async function serviceFormOptions(ctx: Ctx, slug: string): Promise<ServiceFormOptions> {
  const options = await loadLaunchOptions(ctx, slug);
  const seen = new Map<string, string>();
  for (const o of options.offerings) {
    if (!seen.has(o.instanceTypeId)) {
      seen.set(o.instanceTypeId, `${o.instanceTypeId} — ${o.gpuCount} × ${o.gpuModelName}`);
    }
  }
  return {
    projects: options.projects,
    regions: options.regions,
    images: options.images.filter((i) => i.kinds.includes("container")),
    instanceTypes: [...seen].map(([id, label]) => ({ id, label })),
  };
}

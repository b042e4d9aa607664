import "server-only";
import type {
  LaunchImage,
  LaunchOffering,
  LaunchProject,
  LaunchRegion,
} from "@/components/instances/launch-options";
import { listGpuModels, listOfferings } from "@/lib/catalog";
import type { Ctx } from "@/lib/core";
import { acceleratorOfVendor, listLaunchImages } from "@/lib/provisioning";
import { listProjects } from "@/lib/tenancy";

const PAGE = 100;

/** Everything the launch form chooses from, read through lib and shaped as plain JSON for the client. */
export async function loadLaunchOptions(ctx: Ctx, orgSlug: string) {
  const [projects, models, images, first] = await Promise.all([
    listProjects(ctx, orgSlug),
    listGpuModels(ctx),
    listLaunchImages(ctx),
    listOfferings(ctx, orgSlug, { pageSize: PAGE, sort: "price_asc" }),
  ]);
  const pages = [first];
  for (let p = 2; p <= first.pageCount; p++) {
    pages.push(await listOfferings(ctx, orgSlug, { pageSize: PAGE, page: p, sort: "price_asc" }));
  }
  const accelerator = new Map(models.map((m) => [m.id, acceleratorOfVendor(m.vendor)]));
  const all = pages.flatMap((p) => p.items);
  const offerings: LaunchOffering[] = all
    .filter((o) => o.allowed)
    .map((o) => ({
      instanceTypeId: o.instanceTypeId,
      regionCode: o.regionCode,
      gpuModelName: o.gpuModelName,
      accelerator: accelerator.get(o.gpuModelId) ?? "nvidia",
      gpuCount: o.gpuCount,
      migProfile: o.migProfile,
      gpuMemoryGib: o.gpuMemoryGib,
      vcpus: o.vcpus,
      ramGib: o.ramGib,
      prices: o.prices,
    }))
    .sort((a, b) => a.instanceTypeId.localeCompare(b.instanceTypeId, "en", { numeric: true }));
  const regionMap = new Map<string, LaunchRegion>();
  for (const o of all) {
    if (!regionMap.has(o.regionCode)) {
      regionMap.set(o.regionCode, {
        code: o.regionCode,
        name: o.regionName,
        jurisdiction: o.jurisdiction,
        allowed: o.allowed,
      });
    }
  }
  return {
    projects: projects.map((p): LaunchProject => ({ slug: p.slug, name: p.name })),
    regions: [...regionMap.values()].sort((a, b) => a.name.localeCompare(b.name)),
    offerings,
    images: images.map(
      (i): LaunchImage => ({ id: i.id, name: i.name, kinds: i.kinds, accelerator: i.accelerator }),
    ),
  };
}

import "server-only";
import { asc, eq, sql } from "drizzle-orm";
import type { Executor, Tx } from "@/lib/db/client";
import { images } from "@/lib/db/schema";

type ImageSeed = typeof images.$inferInsert;

const BOTH = ["notebook", "container"];
const CONTAINER = ["container"];

function fw(
  framework: string,
  name: string,
  version: string,
  tag: string,
  accelerator = "nvidia",
): ImageSeed {
  const slug = framework.toLowerCase();
  return {
    id: `${slug}-${tag}`,
    name: `${name} ${version}`,
    framework,
    version,
    reference: `forja/${slug}:${tag}`,
    accelerator,
    kinds: BOTH,
  };
}

/**
 * The images a tenant can launch. Frameworks run as notebooks (Jupyter inside) or containers; the bare CUDA
 * and ROCm bases have no notebook server, so they are containers only. ROCm images need AMD GPUs.
 */
export const IMAGE_CATALOG: ImageSeed[] = [
  fw("PyTorch", "PyTorch", "2.5 · CUDA 12.4", "2.5-cuda12.4"),
  fw("PyTorch", "PyTorch", "2.4 · CUDA 12.1", "2.4-cuda12.1"),
  fw("PyTorch", "PyTorch", "2.3 · CUDA 11.8", "2.3-cuda11.8"),
  fw("PyTorch", "PyTorch", "2.5 · ROCm 6.2", "2.5-rocm6.2", "amd"),
  fw("TensorFlow", "TensorFlow", "2.17 · CUDA 12.3", "2.17-cuda12.3"),
  fw("TensorFlow", "TensorFlow", "2.16 · CUDA 12.3", "2.16-cuda12.3"),
  fw("TensorFlow", "TensorFlow", "2.15 · CUDA 12.2", "2.15-cuda12.2"),
  fw("JAX", "JAX", "0.4.35 · CUDA 12", "0.4.35-cuda12"),
  fw("JAX", "JAX", "0.4.30 · CUDA 12", "0.4.30-cuda12"),
  ...["12.6", "12.4", "11.8"].map((v) => ({
    id: `cuda-${v}-base`,
    name: `CUDA ${v} base`,
    framework: "CUDA",
    version: v,
    reference: `forja/cuda:${v}-base-ubuntu22.04`,
    accelerator: "nvidia",
    kinds: CONTAINER,
  })),
  ...["6.2", "6.1"].map((v) => ({
    id: `rocm-${v}-base`,
    name: `ROCm ${v} base`,
    framework: "ROCm",
    version: v,
    reference: `forja/rocm:${v}-ubuntu22.04`,
    accelerator: "amd",
    kinds: CONTAINER,
  })),
];

/** Insert or refresh the image catalog; safe to run on every start and from parallel test files. */
export async function seedImages(tx: Tx): Promise<void> {
  await tx
    .insert(images)
    .values(IMAGE_CATALOG)
    .onConflictDoUpdate({
      target: images.id,
      set: {
        name: sql`excluded.name`,
        framework: sql`excluded.framework`,
        version: sql`excluded.version`,
        reference: sql`excluded.reference`,
        accelerator: sql`excluded.accelerator`,
        kinds: sql`excluded.kinds`,
      },
    });
}

export type ImageSummary = typeof images.$inferSelect;

/** Active images, optionally only those that run as the given kind. Public catalog data: no tenant scope. */
export async function listImages(exec: Executor, kind?: "notebook" | "container"): Promise<ImageSummary[]> {
  const rows = await exec
    .select()
    .from(images)
    .where(eq(images.active, true))
    .orderBy(asc(images.framework), asc(images.id));
  return kind ? rows.filter((r) => r.kinds.includes(kind)) : rows;
}

/** GPU vendors as written in gpu_models.vendor, mapped to the image accelerator family. */
export function acceleratorOfVendor(vendor: string): string {
  return vendor.toLowerCase() === "amd" ? "amd" : "nvidia";
}

import "server-only";
import type { Ctx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { type ImageSummary, listImages } from "./images";

/**
 * The image catalog for the console's launch page, through the actor context like every other page read, so
 * pages never reach for the database client. Public catalog data: no tenant scope needed.
 */
export async function listLaunchImages(ctx: Pick<Ctx, "tx">): Promise<ImageSummary[]> {
  return listImages(ctx.tx ?? getDb());
}

/** Which image family ("nvidia" | "amd") runs on a GPU vendor: the launch form filters images with it. */
export { acceleratorOfVendor } from "./images";

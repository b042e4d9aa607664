import "server-only";
import { notFound } from "next/navigation";
import { getBudget } from "@/lib/budgets";
import { type Ctx, NotFoundError } from "@/lib/core";

/** The budget, or the 404 page when it is another organization's (or made up). */
export async function loadBudget(ctx: Ctx, orgSlug: string, id: string) {
  try {
    return await getBudget(ctx, orgSlug, id);
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
}

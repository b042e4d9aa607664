import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import { type OrgRole, requireOrgAccess } from "@/lib/access";
import { requireUserCtx } from "@/lib/auth/session";
import { NotFoundError } from "@/lib/core";

/**
 * For pages under /[org]: the signed-in actor and their access to the organization. Another organization's
 * URL (or a missing one) renders the 404 page. Cached per request so layout and page share one lookup.
 */
export const getOrgPageContext = cache(async (orgSlug: string, min: OrgRole = "viewer") => {
  const ctx = await requireUserCtx();
  try {
    const access = await requireOrgAccess(ctx, orgSlug, min);
    return { ctx, ...access };
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
});

import "server-only";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { getActor } from "@/lib/auth/session";
import type { Ctx, UserActor } from "@/lib/core";

/**
 * For every /admin page and its layout: signed out → sign in; signed in but not a platform operator → the 404
 * page, so the admin area's existence is not advertised. The lib functions check again (requireOperator).
 */
export const getAdminContext = cache(async (): Promise<Ctx & { actor: UserActor }> => {
  const actor = await getActor();
  if (!actor) redirect("/signin?callbackUrl=/admin");
  if (!actor.isOperator) notFound();
  return { actor };
});

/** First value of a search param (a repeated ?q=a&q=b takes the first). */
export function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

import "server-only";
import { getTranslations } from "next-intl/server";
import { type ActionResult, isDomainError, toActionError } from "@/lib/core";

/**
 * toActionError, with the message in the user's language: domain errors carry an English message (also the
 * API's problem detail) and, for the rules of this area, a reason key that the catalog translates.
 */
export async function localizedActionError(err: unknown, label: string): Promise<ActionResult<never>> {
  const result = toActionError(err, label);
  if (result.ok || !isDomainError(err)) return result;
  const t = await getTranslations("SettingsErrors");
  const reason = err.details.reason;
  if (typeof reason === "string" && t.has(reason)) return { ...result, message: t(reason) };
  if (t.has(err.code)) return { ...result, message: t(err.code) };
  return result;
}

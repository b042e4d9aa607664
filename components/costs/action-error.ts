import "server-only";
import { getTranslations } from "next-intl/server";
import { type ActionResult, ForbiddenError, NotFoundError, toActionError } from "@/lib/core";

/**
 * toActionError with the permission and not-found refusals in the reader's language. Field messages come
 * from the library's schemas (the same text the API returns).
 */
export async function costActionError(err: unknown, label: string): Promise<ActionResult<never>> {
  const result = toActionError(err, label);
  if (result.ok) return result;
  const t = await getTranslations("Costs.errors");
  if (err instanceof ForbiddenError) return { ...result, message: t("forbidden") };
  if (err instanceof NotFoundError) return { ...result, message: t("notFound") };
  if (result.fieldErrors) return { ...result, message: t("fix") };
  return result;
}

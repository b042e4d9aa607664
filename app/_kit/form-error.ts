import "server-only";
import { getTranslations } from "next-intl/server";
import { type ActionResult, type Translator, toFormResult } from "@/lib/core";

/**
 * The one form-error adapter, in the reader's language (lib/core toFormResult with next-intl's catalog).
 * `area` names the namespace where a page words its refusals (e.g. "Instances.errors"); `Errors` is the fallback.
 */
export async function formError(err: unknown, label: string, area?: string): Promise<ActionResult<never>> {
  const t = (await getTranslations()) as unknown as Translator;
  return toFormResult(err, t, { label, area });
}

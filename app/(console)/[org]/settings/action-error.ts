import "server-only";
import { getLocale, getTranslations } from "next-intl/server";
import { isLocale } from "@/i18n/config";
import { AUTH_FIELD_MESSAGES } from "@/lib/auth/field-messages";
import { type ActionResult, type FieldErrors, isDomainError, toActionError } from "@/lib/core";
import { TENANCY_FIELD_MESSAGES } from "@/lib/tenancy/field-messages";
import { messagesFor } from "@/messages";

// English field message (lib's text) → where the catalog keeps it in every language.
const FIELD_KEYS = new Map<string, { ns: "AuthFieldErrors" | "SettingsFieldErrors"; key: string }>([
  ...Object.entries(AUTH_FIELD_MESSAGES).map(
    ([key, text]) => [text, { ns: "AuthFieldErrors" as const, key }] as const,
  ),
  ...Object.entries(TENANCY_FIELD_MESSAGES).map(
    ([key, text]) => [text, { ns: "SettingsFieldErrors" as const, key }] as const,
  ),
]);

/** Field messages come from lib in English; show the catalog's text for the user's language. */
export async function localizeFieldErrors(
  fieldErrors: FieldErrors | undefined,
): Promise<FieldErrors | undefined> {
  const locale = await getLocale();
  if (!fieldErrors || !isLocale(locale) || locale === "en") return fieldErrors;
  const catalog = messagesFor(locale) as unknown as Record<string, Record<string, string>>;
  const translate = (text: string) => {
    const at = FIELD_KEYS.get(text);
    return (at && catalog[at.ns]?.[at.key]) ?? text;
  };
  return Object.fromEntries(Object.entries(fieldErrors).map(([field, list]) => [field, list.map(translate)]));
}

/**
 * toActionError, in the user's language: domain errors carry an English message (also the API's problem
 * detail) and, for this area's rules, a reason key; the form-level message comes from `namespace` by reason,
 * else by error code, and field messages from the field catalogs.
 */
export async function localizedActionError(
  err: unknown,
  label: string,
  namespace = "SettingsErrors",
): Promise<ActionResult<never>> {
  const result = toActionError(err, label);
  if (result.ok || !isDomainError(err)) return result;
  const t = await getTranslations(namespace);
  const reason = err.details.reason;
  const key = typeof reason === "string" && t.has(reason) ? reason : t.has(err.code) ? err.code : null;
  return {
    ...result,
    message: key ? t(key) : result.message,
    fieldErrors: await localizeFieldErrors(result.fieldErrors),
  };
}

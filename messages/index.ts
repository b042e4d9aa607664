import type { Locale } from "@/i18n/config";
import enAuth from "./en/auth.json";
import enCommon from "./en/common.json";
import esAuth from "./es/auth.json";
import esCommon from "./es/common.json";

/**
 * Message catalog, one JSON file per namespace and language. Add a namespace by importing both files here.
 * messages/__tests__ checks that both languages have the same keys.
 */
const catalogs = {
  en: { ...enCommon, ...enAuth },
  es: { ...esCommon, ...esAuth },
} satisfies Record<Locale, Record<string, unknown>>;

export type Messages = (typeof catalogs)["en"];

export function messagesFor(locale: Locale): Messages {
  return catalogs[locale];
}
export const allCatalogs = catalogs;

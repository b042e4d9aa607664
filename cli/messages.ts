/**
 * The CLI's own messages in English and Spanish. The language is `--lang`, else FORJA_LANG, else the locale
 * (LC_ALL, LC_MESSAGES, LANG: es_ES.UTF-8 → es); it is also sent to the API as Accept-Language, so the
 * problem's field messages come in the same language. Only these messages are translated so far; the rest
 * of the CLI's text is English.
 */
const en = {
  errorPrefix: "error",
  unreachable: "Cannot reach the server: {why}",
  streamEnded: "the log stream ended early",
  nameOrg: "Name the organization with --org SLUG (or FORJA_ORG)",
  noServices:
    "No services yet. Create one with: forja services create --name … --type … --region … --image …",
  serviceCreated: "{name}: created ({id})",
  serviceToken: "Token (shown once, keep it): {token}",
  servicePublic: "Public: no token needed.",
  serviceDeleted: "{id}: deleted",
  langInvalid: "--lang is en or es",
} as const;
export type MessageKey = keyof typeof en;

const es: Record<MessageKey, string> = {
  errorPrefix: "error",
  unreachable: "No se puede contactar con el servidor: {why}",
  streamEnded: "el flujo de logs terminó antes de tiempo",
  nameOrg: "Indica la organización con --org SLUG (o FORJA_ORG)",
  noServices:
    "Aún no hay servicios. Crea uno con: forja services create --name … --type … --region … --image …",
  serviceCreated: "{name}: creado ({id})",
  serviceToken: "Token (se muestra una sola vez, guárdalo): {token}",
  servicePublic: "Público: no hace falta token.",
  serviceDeleted: "{id}: eliminado",
  langInvalid: "--lang: en o es",
};

export const CATALOG = { en, es } as const;
export type Lang = keyof typeof CATALOG;

let current: Lang | null = null;

/** From the environment: FORJA_LANG, then the POSIX locale variables; English when none names Spanish. */
export function langFromEnv(env: Record<string, string | undefined> = process.env): Lang {
  const locale = env.FORJA_LANG || env.LC_ALL || env.LC_MESSAGES || env.LANG || "";
  return /^es\b|^es[_-]/i.test(locale) ? "es" : "en";
}

export function setLang(lang: string | undefined): void {
  if (lang === undefined) return;
  if (lang !== "en" && lang !== "es") throw new Error(CATALOG[currentLang()].langInvalid);
  current = lang;
}

export function currentLang(): Lang {
  return current ?? langFromEnv();
}

export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  const text: string = CATALOG[currentLang()][key];
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}

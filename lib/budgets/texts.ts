import { defaultLocale, isLocale, type Locale } from "@/i18n/config";
import { messagesFor } from "@/messages";

type Values = Record<string, string | number>;

/**
 * The subset of ICU MessageFormat the CostNotices catalog uses: {arg}, '' for an apostrophe and
 * {n, plural, one {# …} other {# …}}. The worker has no next-intl request context (and next-intl's entry
 * pulls in React client hooks under the react-server condition the worker runs with), so emails and
 * notifications are formatted here.
 */
export function formatMessage(locale: Locale, src: string, values: Values): string {
  let i = 0;
  const plural = new Intl.PluralRules(locale);
  const read = (count: number | null): string => {
    let out = "";
    while (i < src.length) {
      const c = src[i] as string;
      if (c === "'" && src[i + 1] === "'") {
        out += "'";
        i += 2;
      } else if (c === "{") {
        i++;
        out += argument();
      } else if (c === "}") {
        return out;
      } else if (c === "#" && count !== null) {
        out += new Intl.NumberFormat(locale).format(count);
        i++;
      } else {
        out += c;
        i++;
      }
    }
    return out;
  };
  const argument = (): string => {
    const close = src.slice(i).search(/[,}]/);
    const name = src.slice(i, i + close).trim();
    i += close;
    if (src[i] === "}") {
      i++;
      return String(values[name] ?? `{${name}}`);
    }
    const n = Number(values[name] ?? 0);
    const wanted = plural.select(n);
    i = src.indexOf(",", i + 1) + 1;
    let chosen: string | null = null;
    let other = "";
    for (;;) {
      while (/\s/.test(src[i] ?? "")) i++;
      if (src[i] === "}" || i >= src.length) {
        i++;
        break;
      }
      const open = src.indexOf("{", i);
      const selector = src.slice(i, open).trim();
      i = open + 1;
      const text = read(n);
      i++;
      if (selector === `=${n}` || (selector === wanted && chosen === null)) chosen = text;
      if (selector === "other") other = text;
    }
    return chosen ?? other;
  };
  return read(null);
}

type CostKey = keyof ReturnType<typeof messagesFor>["CostNotices"];

/** Texts for one recipient: their language when known, else the default. */
export function costTexts(locale?: string | null) {
  const l: Locale = isLocale(locale) ? locale : defaultLocale;
  const catalog = messagesFor(l).CostNotices;
  const usd = new Intl.NumberFormat(l, { style: "currency", currency: "USD" });
  const time = new Intl.DateTimeFormat(l, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  return {
    locale: l,
    t: (key: CostKey, values: Values = {}) => formatMessage(l, catalog[key], values),
    usd: (n: number) => usd.format(n),
    time: (d: Date) => time.format(d),
  };
}
export type CostTexts = ReturnType<typeof costTexts>;

/** Console base URL for links in emails (absolute, as emails need). */
export function publicBaseUrl(): string {
  return (process.env.NEXTAUTH_URL ?? "http://localhost:3000").replace(/\/$/, "");
}

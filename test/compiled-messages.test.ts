import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { createTranslator } from "use-intl/core";
import formatCompiled from "use-intl/format-message/format-only";
import { describe, expect, it } from "vitest";
import { compiledMessagesFor } from "@/i18n/compiled-messages";
import { locales } from "@/i18n/config";
import { messagesFor } from "@/messages";

type Tree = { [key: string]: string | unknown[] | Tree };

/** Every message with its dotted key (a compiled message is a string or an array). */
function leaves(tree: Tree, prefix = ""): Array<[string, string]> {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === "string" || Array.isArray(v)
      ? [[`${prefix}${k}`, v as string] as [string, string]]
      : leaves(v, `${prefix}${k}.`),
  );
}

/** Values for every argument a message takes: numbers for plurals, a case of each select, a date for dates. */
function valuesFor(message: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const walk = (nodes: ReturnType<typeof parse>) => {
    for (const n of nodes) {
      if (n.type === TYPE.argument) values[n.value] = `«${n.value}»`;
      else if (n.type === TYPE.number || n.type === TYPE.plural) values[n.value] = 3;
      else if (n.type === TYPE.date || n.type === TYPE.time)
        values[n.value] = new Date(Date.UTC(2030, 0, 2, 3, 4));
      else if (n.type === TYPE.select) {
        values[n.value] = Object.keys(n.options).find((k) => k !== "other") ?? "other";
      } else if (n.type === TYPE.tag)
        values[n.value] = (chunks: unknown[]) => `<${n.value}>${chunks.join("")}</>`;
      if ("options" in n) for (const o of Object.values(n.options)) walk(o.value);
      if (n.type === TYPE.tag) walk(n.children);
    }
  };
  walk(parse(message));
  return values;
}

const formatters = {
  getNumberFormat: (l: string, o?: Intl.NumberFormatOptions) => new Intl.NumberFormat(l, o),
  getDateTimeFormat: (l: string, o?: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(l, o),
  getPluralRules: (l: string, o?: Intl.PluralRulesOptions) => new Intl.PluralRules(l, o),
};

/**
 * The console formats compiled messages with use-intl's small runtime (next.config.mjs aliases
 * use-intl/format-message to it; issue 13: no ICU parser in any page's JavaScript). Every message of both
 * languages must read exactly as the full formatter reads the catalog, and the compiled catalog must be plain
 * data, which is all a server component may pass to the client provider.
 */
describe("compiled messages", () => {
  for (const locale of locales) {
    it(`${locale}: every message formats as the full ICU formatter formats it`, () => {
      const raw = messagesFor(locale) as unknown as Tree;
      const compiled = compiledMessagesFor(locale) as unknown as Tree;
      const full = createTranslator({ locale, messages: raw, timeZone: "UTC" });
      const compiledLeaves = new Map(leaves(compiled));
      const all = leaves(raw);
      expect(all.length).toBeGreaterThan(500);
      for (const [key, message] of all) {
        const values = valuesFor(message);
        const expected = full.markup(key as never, values as never);
        const got = formatCompiled(
          key,
          compiledLeaves.get(key) as never,
          values as never,
          {
            locale,
            timeZone: "UTC",
            formatters,
          } as never,
        );
        expect([key, Array.isArray(got) ? got.join("") : String(got)]).toEqual([key, expected]);
      }
    });
  }

  it("is plain data (arrays and plain objects only)", () => {
    const compiled = compiledMessagesFor("en");
    expect(JSON.parse(JSON.stringify(compiled))).toEqual(compiled);
    const plain = (v: unknown): boolean =>
      typeof v !== "object" || v === null || Array.isArray(v)
        ? !Array.isArray(v) || v.every(plain)
        : Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every(plain);
    expect(plain(compiled)).toBe(true);
  });
});

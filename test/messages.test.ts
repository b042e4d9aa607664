import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allCatalogs } from "@/messages";

/**
 * The catalogs must match between languages: every key in messages/en/*.json exists in messages/es/*.json and
 * back, each message is valid ICU, and both translations use the same arguments (names and types) and rich-text
 * tags. A missing or broken translation fails the build here instead of showing a raw key to a user.
 */
const DIR = path.resolve(import.meta.dirname, "../messages");
const LANGS = ["en", "es"] as const;

type Json = string | { [k: string]: Json };

function flatten(obj: Json, prefix = "", out = new Map<string, string>()): Map<string, string> {
  if (typeof obj === "string") {
    out.set(prefix, obj);
    return out;
  }
  for (const [k, v] of Object.entries(obj)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

/** The arguments ("arg:name" or "arg:name:type") and tags ("tag:b") an ICU message uses; throws if invalid. */
function icuSignature(src: string): string[] {
  const out = new Set<string>();
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at ${i} in ${JSON.stringify(src)}`);
  };
  const ws = () => {
    while (i < src.length && /\s/.test(src[i] as string)) i++;
  };
  const word = () => {
    const m = /^[^\s,{}]+/.exec(src.slice(i));
    if (!m) fail("expected a name");
    i += (m as RegExpExecArray)[0].length;
    return (m as RegExpExecArray)[0];
  };
  const argument = () => {
    ws();
    const name = word();
    ws();
    if (src[i] === "}") {
      i++;
      out.add(`arg:${name}`);
      return;
    }
    if (src[i] !== ",") fail("expected , or }");
    i++;
    ws();
    const type = word();
    out.add(`arg:${name}:${type}`);
    ws();
    if (src[i] === "}") {
      i++;
      return;
    }
    if (src[i] !== ",") fail("expected , or }");
    i++;
    if (!["plural", "select", "selectordinal"].includes(type)) {
      const close = src.indexOf("}", i);
      if (close < 0) fail("unclosed style");
      i = close + 1;
      return;
    }
    const selectors: string[] = [];
    for (;;) {
      ws();
      if (src[i] === "}") {
        i++;
        break;
      }
      const sel = word();
      if (sel.startsWith("offset:")) continue;
      selectors.push(sel);
      ws();
      if (src[i] !== "{") fail(`expected { after ${sel}`);
      i++;
      message();
      if (src[i] !== "}") fail("unclosed branch");
      i++;
    }
    if (!selectors.includes("other")) fail(`${type} needs an "other" branch`);
  };
  const message = (closingTag?: string) => {
    while (i < src.length) {
      const c = src[i];
      if (c === "'") {
        // ICU quoting: '' is an apostrophe, '{...}' is literal text, a lone ' is itself.
        if (src[i + 1] === "'") i += 2;
        else if ("{}#<".includes(src[i + 1] ?? "")) {
          const end = src.indexOf("'", i + 1);
          i = end < 0 ? src.length : end + 1;
        } else i++;
      } else if (c === "{") {
        i++;
        argument();
      } else if (c === "}") {
        if (closingTag) fail(`unclosed <${closingTag}>`);
        return;
      } else if (c === "<") {
        const m = /^<(\/?)([A-Za-z][\w-]*)>/.exec(src.slice(i));
        if (!m) {
          i++;
          continue;
        }
        i += m[0].length;
        if (m[1]) {
          if (m[2] !== closingTag) fail(`unexpected </${m[2]}>`);
          return;
        }
        out.add(`tag:${m[2]}`);
        message(m[2]);
      } else i++;
    }
    if (closingTag) fail(`unclosed <${closingTag}>`);
  };
  message();
  if (i < src.length) fail("unbalanced }");
  return [...out].sort();
}

function load(lang: string, file: string): Map<string, string> {
  return flatten(JSON.parse(fs.readFileSync(path.join(DIR, lang, file), "utf8")) as Json);
}

const files = (lang: string) =>
  fs
    .readdirSync(path.join(DIR, lang))
    .filter((f) => f.endsWith(".json"))
    .sort();

describe("icuSignature", () => {
  it("finds arguments with their types and tags, ignoring plural branch texts", () => {
    expect(
      icuSignature("Hi {name}, {count, plural, =0 {no items} one {# item} other {{count} items}}"),
    ).toEqual(["arg:count", "arg:count:plural", "arg:name"]);
    expect(icuSignature("Read <link>the docs</link> by {when, date, short}")).toEqual([
      "arg:when:date",
      "tag:link",
    ]);
    expect(icuSignature("It's '{literal}' text")).toEqual([]);
  });

  it.each(["Hi {name", "Hi name}", "{n, plural, one {#}}", "<b>bold", "{n, select, a {x} other {y}"])(
    "rejects the invalid message %s",
    (src) => {
      expect(() => icuSignature(src)).toThrow();
    },
  );
});

describe("message catalogs", () => {
  it("have the same files in every language", () => {
    expect(files("es")).toEqual(files("en"));
  });

  for (const file of files("en")) {
    describe(file, () => {
      const byLang = Object.fromEntries(LANGS.map((l) => [l, load(l, file)])) as Record<
        (typeof LANGS)[number],
        Map<string, string>
      >;

      it("has the same keys in English and Spanish", () => {
        const en = [...byLang.en.keys()].sort();
        const es = [...byLang.es.keys()].sort();
        expect({
          missingInSpanish: en.filter((k) => !byLang.es.has(k)),
          missingInEnglish: es.filter((k) => !byLang.en.has(k)),
        }).toEqual({
          missingInSpanish: [],
          missingInEnglish: [],
        });
      });

      it("uses the same ICU arguments and tags in both languages, and every message parses", () => {
        const mismatches: string[] = [];
        for (const [key, en] of byLang.en) {
          const es = byLang.es.get(key);
          if (es === undefined) continue;
          if (!en.trim() || !es.trim()) mismatches.push(`${key}: empty message`);
          const a = icuSignature(en).join(" ");
          const b = icuSignature(es).join(" ");
          if (a !== b) mismatches.push(`${key}: en [${a}] vs es [${b}]`);
        }
        expect(mismatches).toEqual([]);
      });

      it("is registered in messages/index.ts", () => {
        const namespaces = Object.keys(JSON.parse(fs.readFileSync(path.join(DIR, "en", file), "utf8")));
        for (const lang of LANGS) {
          expect(Object.keys(allCatalogs[lang])).toEqual(expect.arrayContaining(namespaces));
        }
      });
    });
  }
});

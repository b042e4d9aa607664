import compile from "icu-minify/compile";
import type { AbstractIntlMessages } from "next-intl";
import { messagesFor } from "@/messages";
import type { Locale } from "./config";

type Tree = { [key: string]: string | Tree };
const cache = new Map<Locale, AbstractIntlMessages>();

function compileTree(tree: Tree): Tree {
  const out: Tree = {};
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value !== "string") out[key] = compileTree(value);
    else {
      try {
        // Plain arrays and objects: RSC passes nothing else (compile() builds null-prototype objects).
        out[key] = JSON.parse(JSON.stringify(compile(value))) as string;
      } catch {
        // Never reached for the catalog (test/messages.test.ts parses every message); shown as written if it were.
        out[key] = value;
      }
    }
  }
  return out;
}

/**
 * The catalog with every ICU message compiled once per process (icu-minify, next-intl's own precompiler). The
 * console formats with use-intl's small runtime for compiled messages (next.config.mjs aliases
 * `use-intl/format-message` to it), so no page downloads the ICU parser (about 10 kB gzip). Code outside
 * next-intl (emails, problem details) reads the plain catalog from @/messages and is unaffected.
 */
export function compiledMessagesFor(locale: Locale): AbstractIntlMessages {
  let compiled = cache.get(locale);
  if (!compiled) {
    compiled = compileTree(messagesFor(locale) as unknown as Tree) as AbstractIntlMessages;
    cache.set(locale, compiled);
  }
  return compiled;
}

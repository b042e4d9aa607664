/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { ACTION_ACCESS } from "./access";

/**
 * Every server action (an export of a "use server" file under app/) must be classified in ACTION_ACCESS with
 * the least role allowed, so a new action cannot appear without someone deciding who may call it. Found
 * from the source text, so this needs no Next.js request scope.
 */
const sources = import.meta.glob<string>("/app/**/*.{ts,tsx}", {
  query: "?raw",
  import: "default",
  eager: true,
});

function serverActions(): string[] {
  const out: string[] = [];
  for (const [file, text] of Object.entries(sources)) {
    if (!/^\s*["']use server["']/.test(text)) continue;
    for (const m of text.matchAll(/^export\s+(?:async\s+)?(?:function|const)\s+(\w+)/gm)) {
      out.push(`${file.replace(/^\/app\//, "")}#${m[1]}`);
    }
  }
  return out.sort();
}

describe("server action sweep", () => {
  it("classifies every server action it finds, and only actions that exist", () => {
    const found = serverActions();
    expect(found.length).toBeGreaterThan(20);
    const unclassified = found.filter((k) => !(k in ACTION_ACCESS));
    const stale = Object.keys(ACTION_ACCESS).filter((k) => !found.includes(k));
    expect({ unclassified, stale }, "classify each action in test/sweep/access.ts").toEqual({
      unclassified: [],
      stale: [],
    });
  });
});

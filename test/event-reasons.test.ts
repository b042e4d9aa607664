import { describe, expect, it } from "vitest";
import { EVENT_REASON_CODES, why } from "@/lib/provisioning/event-reasons";
import { allCatalogs } from "@/messages";

/**
 * Timeline reasons are data rendered from the catalog: every code has a message in both languages that uses
 * exactly the parameters the code's English text is built from (a missing one would show a raw key, or
 * "{node}", to a reader).
 */
const SAMPLE = {
  node: "fra1-a01",
  seconds: 30,
  minutes: 90,
  reason: "unpaid invoices",
  stopsAt: "2031-02-07T11:45:12Z",
  detail: "low memory on n1",
  waiting: "ErrImagePull",
  exitCode: 137,
  name: "urgent-eval",
  priority: 55,
};

function reasons(locale: "en" | "es"): Record<string, string> {
  return allCatalogs[locale].Instances.timeline.reasons;
}

describe("timeline reason codes", () => {
  it.each(EVENT_REASON_CODES)("%s has an English and a Spanish message with its parameters", (code) => {
    const r = why(code, SAMPLE);
    for (const locale of ["en", "es"] as const) {
      const msg = reasons(locale)[code];
      expect(msg, `${locale} message for ${code}`).toBeTruthy();
      const args = [...(msg as string).matchAll(/\{(\w+)/g)].map((m) => m[1]).sort();
      const used = Object.keys(SAMPLE)
        .filter((k) => r.text.includes(String(SAMPLE[k as keyof typeof SAMPLE])))
        .sort();
      expect(args, `${locale} ${code}`).toEqual(used);
    }
    expect(reasons("es")[code]).not.toBe(reasons("en")[code]);
  });

  it("has no message without a code (a stale key would never be shown)", () => {
    expect(Object.keys(reasons("en")).sort()).toEqual([...EVENT_REASON_CODES].sort());
  });
});

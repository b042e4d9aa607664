import { describe, expect, it } from "vitest";
import { costTexts, formatMessage } from "@/lib/notify";

describe("formatMessage", () => {
  it("fills arguments, unescapes '' and picks plural branches with #", () => {
    const src = "Budget ''{name}'': {count, plural, one {# instance} other {# instances}}";
    expect(formatMessage("en", src, { name: "R", count: 1 })).toBe("Budget 'R': 1 instance");
    expect(formatMessage("en", src, { name: "R", count: 1200 })).toBe("Budget 'R': 1,200 instances");
    expect(formatMessage("en", "{n, plural, =0 {none} other {# left}}", { n: 0 })).toBe("none");
  });

  it("renders the budget subject the way the design asks, in English and Spanish", () => {
    const en = costTexts("en");
    expect(
      en.t("budgetActualSubject", { name: "Research", pct: 80, spent: en.usd(800), amount: en.usd(1000) }),
    ).toBe("Budget 'Research' at 80% — $800.00 of $1,000.00");
    const es = costTexts("es");
    expect(es.t("budgetActualSubject", { name: "Research", pct: 80, spent: "800", amount: "1000" })).toBe(
      "Presupuesto 'Research' al 80 % — 800 de 1000",
    );
    expect(costTexts("xx").locale).toBe("en");
  });
});

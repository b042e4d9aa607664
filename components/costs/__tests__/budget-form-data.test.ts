import { describe, expect, it } from "vitest";
import { budgetSchema } from "@/lib/budgets";
import { parseInput, ValidationError } from "@/lib/core";
import { budgetInputFromForm, splitEmails, toBudgetFormErrors } from "../budget-form-data";

function form(entries: Array<[string, string]>): FormData {
  const fd = new FormData();
  for (const [k, v] of entries) fd.append(k, v);
  return fd;
}

const base: Array<[string, string]> = [
  ["name", "Team"],
  ["project", ""],
  ["amountUsd", "250.50"],
  ["thresholdKind", "actual"],
  ["thresholdPct", "50"],
  ["thresholdKind", "forecast"],
  ["thresholdPct", "100"],
  ["recipientEmails", "Finance@Acme.test,\nops@acme.test ; "],
  ["actionAt100", "stop_instances"],
  ["graceMinutes", "15"],
];

const errorsOf = (fd: FormData) => {
  const input = budgetInputFromForm(fd);
  try {
    parseInput(budgetSchema, input);
  } catch (e) {
    if (e instanceof ValidationError) return toBudgetFormErrors(e.fieldErrors, input);
    throw e;
  }
  return {};
};

describe("budget form data", () => {
  it("becomes the library's input: paired thresholds, split addresses, grace only when stopping", () => {
    const v = parseInput(budgetSchema, budgetInputFromForm(form(base)));
    expect(v).toMatchObject({
      name: "Team",
      project: null,
      amountUsd: 250.5,
      thresholds: [
        { kind: "actual", pct: 50 },
        { kind: "forecast", pct: 100 },
      ],
      recipientEmails: ["finance@acme.test", "ops@acme.test"],
      actionAt100: "stop_instances",
      graceMinutes: 15,
    });
    const notify = form(
      base.map(([k, v]) => [k, k === "actionAt100" ? "notify" : k === "graceMinutes" ? "x" : v]),
    );
    expect(parseInput(budgetSchema, budgetInputFromForm(notify)).graceMinutes).toBe(60);
  });

  it("refuses empty, negative, too large and bad addresses at their fields", () => {
    const set = (over: Record<string, string>) => form(base.map(([k, v]) => [k, over[k] ?? v]));
    expect(errorsOf(set({ name: " " }))).toHaveProperty("name");
    expect(errorsOf(set({ amountUsd: "" })).amountUsd).toEqual(["Enter an amount above zero"]);
    expect(errorsOf(set({ amountUsd: "-3" })).amountUsd).toEqual(["Enter an amount above zero"]);
    expect(errorsOf(set({ amountUsd: "100000001" })).amountUsd).toEqual(["At most $100,000,000"]);
    expect(errorsOf(set({ recipientEmails: "ok@acme.test, nope" })).recipientEmails).toEqual([
      "Enter valid email addresses: nope",
    ]);
    const noThresholds = form(base.filter(([k]) => !k.startsWith("threshold")));
    expect(errorsOf(noThresholds).thresholds).toEqual(["Keep at least one threshold"]);
  });

  it("splits addresses on commas, semicolons and whitespace", () => {
    expect(splitEmails(" a@x.test,b@x.test\n\nc@x.test ;d@x.test ")).toEqual([
      "a@x.test",
      "b@x.test",
      "c@x.test",
      "d@x.test",
    ]);
  });
});

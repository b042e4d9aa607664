import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { BadRequestError, PayloadTooLargeError, PreconditionFailedError } from "@/lib/api/errors";
import { errorToProblem } from "@/lib/api/problem";
import "@/lib/auth";
import * as core from "@/lib/core";
import {
  BudgetBlockedError,
  ConflictError,
  type DomainError,
  declaredFieldMessages,
  ForbiddenError,
  InvalidStateError,
  NotFoundError,
  parseInput,
  QuotaExceededError,
  RateLimitedError,
  type Translator,
  toFormResult,
  UnauthorizedError,
  ValidationError,
} from "@/lib/core";
import { launchSpecSchema } from "@/lib/provisioning";
import "@/lib/tenancy";
import { allCatalogs } from "@/messages";

const t = (locale: "en" | "es") =>
  createTranslator({ locale, messages: allCatalogs[locale] }) as unknown as Translator;

// One of each domain error class, as lib raises it. A new class must be added here (the walk below checks).
const samples: DomainError[] = [
  new NotFoundError("Instance"),
  new UnauthorizedError(),
  new ForbiddenError("This needs the admin role or higher"),
  new ConflictError("An instance with this name exists", { reason: "conflict" }),
  new InvalidStateError("Only a running instance can be stopped; this one is stopped", { from: "stopped" }),
  new QuotaExceededError("Quota exceeded", {
    gpuModelName: "H100",
    regionCode: "eu-fi-hel1",
    limitGpus: 8,
    usedGpus: 8,
    requestedGpus: 1,
  }),
  new BudgetBlockedError("The budget 'Team' is used up", {
    budgetId: "b",
    budgetName: "Team",
    period: "2030-05",
    actualUsd: 12.5,
    amountUsd: 5,
  }),
  new RateLimitedError(42),
  ValidationError.field("name", "Enter a name"),
  new BadRequestError("The request body is not valid JSON"),
  new PayloadTooLargeError("The request body is larger than 65536 bytes"),
  new PreconditionFailedError("The budget changed since it was read"),
];

describe("error reasons are data", () => {
  it("the samples cover every domain error class lib/core and lib/api export", () => {
    const classes = [
      ...Object.values(core as Record<string, unknown>),
      BadRequestError,
      PayloadTooLargeError,
      PreconditionFailedError,
    ].filter(
      (v): v is { name: string; prototype: unknown } =>
        typeof v === "function" && (v as { prototype: unknown }).prototype instanceof core.DomainError,
    );
    for (const cls of classes)
      expect(
        samples.some((s) => s.constructor === cls),
        cls.name,
      ).toBe(true);
  });

  it.each(samples.map((e) => [e.name, e] as const))(
    "%s: a message in both languages and a problem with its reason",
    async (_n, err) => {
      const en = toFormResult(err, t("en"), { label: "test" });
      const es = toFormResult(err, t("es"), { label: "test" });
      for (const r of [en, es]) {
        expect(r.ok).toBe(false);
        if (r.ok) return;
        expect(r.message).not.toMatch(/^Errors\.|[{}]/);
      }
      if (!en.ok && !es.ok) expect(es.message).not.toBe(en.message);
      const problem = (await errorToProblem(err, "/api/v1/x").json()) as Record<string, unknown>;
      expect(problem).toMatchObject({
        reason: err.reason,
        status: err.status,
        type: `https://forja.dev/problems/${err.code}`,
      });
    },
  );

  it("a used-up budget is its own reason and message, not the quota sentence", () => {
    const budget = samples.find((e) => e instanceof BudgetBlockedError) as DomainError;
    expect(budget.reason).toBe("budget_blocked");
    const es = toFormResult(budget, t("es"), { label: "launch", area: "Instances.errors" });
    expect(es.ok || es.message).toMatch(
      /presupuesto «Team» está agotado en 2030-05 \(12,50\sUS\$ de 5,00\sUS\$\)/,
    );
    const en = toFormResult(budget, t("en"), { label: "launch", area: "Instances.errors" });
    expect(en.ok || en.message).toBe(
      "The budget ‘Team’ is used up for 2030-05 ($12.50 of $5.00): new launches are blocked until an admin raises the budget or the month ends.",
    );
  });

  it("a reason worded only in Errors wins over the page's words for the error's class (a suspended org)", () => {
    const suspended = new ForbiddenError("Your organization is suspended", {
      reason: "org_suspended",
      suspensionReason: "Unpaid invoice",
    });
    const en = toFormResult(suspended, t("en"), { label: "launch", area: "Instances.errors" });
    expect(en.ok || en.message).toBe(
      "Your organization is suspended by the platform operator (Unpaid invoice); new work cannot start.",
    );
    const es = toFormResult(suspended, t("es"), { label: "launch", area: "Instances.errors" });
    expect(es.ok || es.message).toContain("ha suspendido tu organización (Unpaid invoice)");
    // A plain refusal of the class still reads in the page's words.
    const role = toFormResult(new ForbiddenError("nope"), t("en"), {
      label: "launch",
      area: "Instances.errors",
    });
    expect(role.ok || role.message).toBe(allCatalogs.en.Instances.errors.forbidden);
  });

  it("a field error carries its key: the launch spec's field messages read in Spanish", () => {
    const err = (() => {
      try {
        parseInput(launchSpecSchema, { kind: "notebook", name: "Bad Name", diskGib: 1 });
      } catch (e) {
        return e as ValidationError;
      }
    })();
    expect(err?.fieldErrors.diskGib).toEqual(["At least 10 GiB"]);
    expect(err?.fieldMessages.diskGib).toEqual([
      { key: "LaunchFieldErrors.diskMin", params: { min: 10 }, text: "At least 10 GiB" },
    ]);
    const es = toFormResult(err, t("es"), { label: "launch" });
    expect(es.ok ? null : es.fieldErrors).toMatchObject({
      diskGib: ["Al menos 10 GiB"],
      name: [expect.stringMatching(/^Usa minúsculas/)],
      region: ["Elige una región"],
    });
  });

  it("every declared field message has its key in both catalogs, the English one saying what lib says", () => {
    const declared = declaredFieldMessages();
    expect(declared.length).toBeGreaterThan(40);
    for (const m of declared) {
      const key = m.key as string;
      expect(t("en").has(key), key).toBe(true);
      expect(t("es").has(key), key).toBe(true);
      expect(t("en")(key, m.params)).toBe(m.text);
    }
  });
});

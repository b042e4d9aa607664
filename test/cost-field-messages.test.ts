import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { API_FIELD_MESSAGES } from "@/lib/api/field-messages";
import { type EffectivePolicy, policySchema, policyViolations, snoozeSchema } from "@/lib/autoshutdown";
import { AUTOSHUTDOWN_FIELD_MESSAGES } from "@/lib/autoshutdown/field-messages";
import { budgetSchema } from "@/lib/budgets";
import { BUDGET_FIELD_MESSAGES } from "@/lib/budgets/field-messages";
import {
  declaredFieldMessages,
  fieldMessageWith,
  parseInput,
  type Translator,
  toFormResult,
  ValidationError,
} from "@/lib/core";
import {
  costRangeSchema,
  dailyCostSchema,
  monthSchema,
  reservationSchema,
  topInstancesSchema,
} from "@/lib/metering";
import { COST_FIELD_MESSAGES } from "@/lib/metering/field-messages";
import { LAUNCH_FIELD_MESSAGES } from "@/lib/provisioning/field-messages";
import { allCatalogs } from "@/messages";

/**
 * The budget, auto-shutdown and cost/reservation forms: every field message they can show comes from the
 * catalog by key, in English and Spanish; none is English text that an edge would have to recognise.
 */
const t = (locale: "en" | "es") =>
  createTranslator({ locale, messages: allCatalogs[locale] }) as unknown as Translator;

const NAMESPACES = ["BudgetFieldErrors", "AutoShutdownFieldErrors", "CostFieldErrors"];
const english = new Set([
  ...Object.values(BUDGET_FIELD_MESSAGES),
  ...Object.values(AUTOSHUTDOWN_FIELD_MESSAGES),
  ...Object.values(COST_FIELD_MESSAGES),
]);

describe("cost, budget and auto-shutdown field messages", () => {
  it("each declared key is in both catalogs; English says what lib says, Spanish says it in Spanish", () => {
    const mine = declaredFieldMessages().filter((m) => NAMESPACES.some((ns) => m.key?.startsWith(`${ns}.`)));
    expect(mine.length).toBeGreaterThan(60);
    for (const m of mine) {
      const key = m.key as string;
      expect(t("en")(key, m.params), key).toBe(m.text);
      expect(t("es").has(key), key).toBe(true);
      expect(t("es")(key, m.params), key).not.toBe(m.text);
    }
  });

  // Bad values of every shape, at every field: whatever a schema answers must reach a Spanish reader in Spanish.
  const bad: unknown[] = [
    undefined,
    null,
    "",
    " ",
    "x",
    "x".repeat(300),
    -5,
    1.5,
    0,
    99_999,
    1e12,
    [],
    ["x"],
    {},
  ];
  const schemas: Array<[string, z.ZodType, string[]]> = [
    [
      "budget",
      budgetSchema,
      [
        "name",
        "project",
        "amountUsd",
        "thresholds",
        "recipientUserIds",
        "recipientEmails",
        "actionAt100",
        "graceMinutes",
      ],
    ],
    [
      "auto-shutdown policy",
      policySchema,
      [
        "project",
        "gpuModelId",
        "defaultIdlePct",
        "defaultIdleMinutes",
        "idleMinutesMax",
        "idlePctMin",
        "defaultMaxRuntimeMinutes",
        "maxRuntimeMinutesMax",
        "snoozeMinutesMax",
        "maxSnoozes",
        "warningMinutes",
      ],
    ],
    ["snooze", snoozeSchema, ["minutes"]],
    ["reservation", reservationSchema, ["gpuModelId", "regionCode", "gpuCount", "term", "idempotencyKey"]],
    ["cost range", costRangeSchema, ["from", "to", "project"]],
    ["daily cost", dailyCostSchema, ["from", "to", "groupBy"]],
    ["top instances", topInstancesSchema, ["from", "to", "limit"]],
    ["month", monthSchema, ["month", "project"]],
  ];
  const base: Record<string, unknown> = {
    budget: { name: "Team", amountUsd: 100, thresholds: [{ kind: "actual", pct: 50 }] },
    reservation: { gpuModelId: "h100", regionCode: "eu-1", gpuCount: 1, term: "reserved_1m" },
    "cost range": { from: "2030-01-01", to: "2030-02-01" },
    "daily cost": { from: "2030-01-01", to: "2030-02-01" },
    "top instances": { from: "2030-01-01", to: "2030-02-01" },
  };
  it.each(schemas)(
    "%s: every field error is a catalog message, worded in Spanish",
    (label, schema, fields) => {
      const seen = new Map<string, string[]>();
      const shapes: unknown[] = [{}, { ...(base[label] as object), from: "2030-02-01", to: "2030-01-01" }];
      for (const field of fields)
        for (const value of bad) shapes.push({ ...(base[label] as object), [field]: value });
      shapes.push({
        ...(base[label] as object),
        thresholds: [
          { kind: "x", pct: "y" },
          { kind: "actual", pct: 5000 },
        ],
      });
      for (const input of shapes) {
        let err: unknown;
        try {
          parseInput(schema, input);
        } catch (e) {
          err = e;
        }
        if (!(err instanceof ValidationError)) continue;
        for (const [field, list] of Object.entries(err.fieldMessages)) {
          for (const m of list) expect(m.key, `${label} ${field}: "${m.text}"`).not.toBeNull();
        }
        const es = toFormResult(err, t("es"), { label });
        for (const [field, list] of Object.entries(es.ok ? {} : (es.fieldErrors ?? {})))
          seen.set(field, [...(seen.get(field) ?? []), ...list]);
      }
      expect(seen.size).toBeGreaterThan(0);
      const leaked = [...seen].flatMap(([field, list]) =>
        list.filter((m) => english.has(m)).map((m) => `${field}: ${m}`),
      );
      expect(leaked).toEqual([]);
    },
  );

  it("limits from the organization's policy are catalog messages with the policy's numbers", () => {
    const policy = {
      id: null,
      projectId: null,
      gpuModelId: null,
      defaultIdlePct: 5,
      defaultIdleMinutes: 30,
      idleRequired: true,
      idleMinutesMax: 45,
      idlePctMin: 10,
      defaultMaxRuntimeMinutes: 60,
      maxRuntimeMinutesMax: 90,
      allowSnooze: true,
      snoozeMinutesMax: 30,
      maxSnoozes: 2,
      warningMinutes: 10,
    } as EffectivePolicy;
    const over = policyViolations(
      { idle: { utilizationBelowPct: 2, minutes: 120 }, maxRuntimeMinutes: 600, schedule: null },
      policy,
    );
    const err = new ValidationError(
      Object.fromEntries(Object.entries(over).map(([f, l]) => [f, l.map((m) => m.text)])),
      undefined,
      over,
    );
    expect(err.fieldErrors).toEqual({
      "autoShutdown.idle.minutes": ["Your organization allows at most 45 idle minutes"],
      "autoShutdown.idle.utilizationBelowPct": [
        "Your organization requires an idle threshold of at least 10 %",
      ],
      "autoShutdown.maxRuntimeMinutes": ["Your organization allows at most 90 minutes of runtime"],
    });
    const es = toFormResult(err, t("es"), { label: "launch" });
    expect(es.ok ? null : es.fieldErrors).toEqual({
      "autoShutdown.idle.minutes": ["Tu organización permite como máximo 45 minutos de inactividad"],
      "autoShutdown.idle.utilizationBelowPct": [
        "Tu organización exige un umbral de inactividad de al menos 10 %",
      ],
      "autoShutdown.maxRuntimeMinutes": ["Tu organización permite como máximo 90 minutos de ejecución"],
    });
    const off = policyViolations({ idle: null, maxRuntimeMinutes: null, schedule: null }, policy);
    expect(
      Object.values(off)
        .flat()
        .map((m) => m.key),
    ).toEqual([
      "AutoShutdownFieldErrors.idleRequiredByPolicy",
      "AutoShutdownFieldErrors.runtimeRequiredByPolicy",
    ]);
    const snooze = ValidationError.field(
      "minutes",
      fieldMessageWith(AUTOSHUTDOWN_FIELD_MESSAGES.snoozeAbovePolicy, { max: 15 }),
    );
    expect(snooze.fieldErrors.minutes).toEqual(["Your organization allows at most 15 minutes at a time"]);
    const r = toFormResult(snooze, t("es"), { label: "snooze" });
    expect(r.ok ? null : r.fieldErrors?.minutes).toEqual([
      "Tu organización permite como máximo 15 minutos cada vez",
    ]);
    const term = fieldMessageWith(COST_FIELD_MESSAGES.termNotOffered, { model: "NVIDIA L4", region: "us-2" });
    expect(term).toEqual({
      key: "CostFieldErrors.termNotOffered",
      params: { model: "NVIDIA L4", region: "us-2" },
      text: "NVIDIA L4 is not offered on this term in us-2",
    });
  });

  it("a launch's refusals that name the catalog (residency, no reservation) are catalog messages too", () => {
    const residency = fieldMessageWith(LAUNCH_FIELD_MESSAGES.residency, {
      allowed: "EU",
      region: "us-va-ash1",
      jurisdiction: "US",
    });
    expect(residency.text).toBe(
      "Your organization's data-residency policy allows only EU; us-va-ash1 is in US",
    );
    const r = toFormResult(ValidationError.field("region", residency), t("es"), { label: "launch" });
    expect(r.ok ? null : r.fieldErrors?.region).toEqual([
      "La política de residencia de datos de tu organización solo permite EU; us-va-ash1 está en US",
    ]);
    const none = fieldMessageWith(LAUNCH_FIELD_MESSAGES.noReservation, {
      model: "NVIDIA L4",
      region: "eu-es-mad1",
    });
    expect(t("es")(none.key as string, none.params)).toMatch(
      /^Tu organización no tiene una reserva activa de NVIDIA L4/,
    );
  });

  it("the API's own field messages (a foreign cursor, a bad Idempotency-Key) are in both catalogs", () => {
    const cursor = toFormResult(ValidationError.field("cursor", API_FIELD_MESSAGES.cursorForeign), t("es"), {
      label: "api",
    });
    expect(cursor.ok ? null : cursor.fieldErrors?.cursor).toEqual([
      "Este cursor no lo emitió esta lista; empieza de nuevo sin él",
    ]);
    const key = ValidationError.field("Idempotency-Key", API_FIELD_MESSAGES.idempotencyKey);
    expect(key.fieldMessages["Idempotency-Key"]?.[0]?.key).toBe("ApiFieldErrors.idempotencyKey");
  });
});

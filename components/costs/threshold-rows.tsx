"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";

export type ThresholdValue = { kind: "actual" | "forecast"; pct: number | string };

/**
 * Editable alert thresholds: one row per (actual|forecast, %), posted as parallel `thresholdKind` and
 * `thresholdPct` fields. Errors come back per row ("thresholds.2.pct") and for the list ("thresholds").
 */
export function ThresholdRows({
  initial,
  errors,
}: {
  initial: ThresholdValue[];
  errors?: Record<string, string[]>;
}) {
  const t = useTranslations("Costs.budgets.form");
  const [rows, setRows] = useState(() => initial.map((r, i) => ({ ...r, key: i })));
  const [next, setNext] = useState(initial.length);
  const listErrors = errors?.thresholds;
  return (
    <fieldset
      aria-describedby="thresholds-hint thresholds-error"
      className="flex flex-col gap-2 rounded-md border border-slate-200 p-4 dark:border-slate-800"
    >
      <legend className="px-1 text-sm font-semibold">{t("thresholds")}</legend>
      <p id="thresholds-hint" className="text-xs text-slate-600 dark:text-slate-400">
        {t("thresholdsHint")}
      </p>
      <ul className="flex flex-col gap-2">
        {rows.map((r, i) => {
          const rowErrors = [
            ...(errors?.[`thresholds.${i}.pct`] ?? []),
            ...(errors?.[`thresholds.${i}.kind`] ?? []),
          ];
          const errId = `threshold-${r.key}-error`;
          return (
            <li key={r.key} className="flex flex-wrap items-end gap-2">
              <div className="flex flex-col gap-1">
                <label htmlFor={`threshold-${r.key}-kind`} className="text-xs font-medium">
                  {t("thresholdKind", { n: i + 1 })}
                </label>
                <select
                  id={`threshold-${r.key}-kind`}
                  name="thresholdKind"
                  defaultValue={r.kind}
                  className="rounded-md border border-slate-300 px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
                >
                  <option value="actual">{t("kindActual")}</option>
                  <option value="forecast">{t("kindForecast")}</option>
                </select>
              </div>
              <div className="flex flex-col gap-1">
                <label htmlFor={`threshold-${r.key}-pct`} className="text-xs font-medium">
                  {t("thresholdPct", { n: i + 1 })}
                </label>
                <input
                  id={`threshold-${r.key}-pct`}
                  name="thresholdPct"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={1000}
                  defaultValue={r.pct}
                  aria-invalid={rowErrors.length > 0 || undefined}
                  aria-describedby={rowErrors.length > 0 ? errId : undefined}
                  className={`w-24 rounded-md border px-2 py-1.5 text-sm dark:bg-slate-900 ${
                    rowErrors.length > 0 ? "border-red-600" : "border-slate-300 dark:border-slate-700"
                  }`}
                />
              </div>
              <Button
                type="button"
                variant="ghost"
                className="px-2 py-1 text-xs"
                aria-label={t("removeThreshold", { n: i + 1 })}
                onClick={() => setRows(rows.filter((x) => x.key !== r.key))}
              >
                {t("remove")}
              </Button>
              <div
                id={errId}
                aria-live="polite"
                className="basis-full text-sm text-red-700 dark:text-red-400"
              >
                {rowErrors.map((e) => (
                  <p key={e}>{e}</p>
                ))}
              </div>
            </li>
          );
        })}
      </ul>
      <div>
        <Button
          type="button"
          variant="secondary"
          className="px-2 py-1 text-xs"
          onClick={() => {
            setRows([...rows, { kind: "actual", pct: "", key: next }]);
            setNext(next + 1);
          }}
        >
          {t("addThreshold")}
        </Button>
      </div>
      <div id="thresholds-error" aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
        {listErrors?.map((e) => (
          <p key={e}>{e}</p>
        ))}
      </div>
    </fieldset>
  );
}

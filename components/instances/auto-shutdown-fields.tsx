"use client";

import { useTranslations } from "next-intl";
import { Field } from "@/components/ui/field";

/**
 * Auto-shutdown settings. Stored with the instance now; the cost-control work enforces them, which the hint
 * says so nobody expects a shutdown that will not happen yet.
 */
export function AutoShutdownFields({ errors }: { errors?: Record<string, string[]> }) {
  const t = useTranslations("Instances.launch.autoShutdown");
  return (
    <fieldset
      aria-describedby="auto-shutdown-hint"
      className="flex flex-col gap-4 rounded-md border border-slate-200 p-4 dark:border-slate-800"
    >
      <legend className="px-1 text-sm font-semibold">{t("legend")}</legend>
      <p id="auto-shutdown-hint" className="text-xs text-slate-600 dark:text-slate-400">
        {t("hint")}
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          name="idlePct"
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          label={t("idlePct")}
          errors={errors?.idlePct}
        />
        <Field
          name="idleMinutes"
          type="number"
          inputMode="numeric"
          min={5}
          label={t("idleMinutes")}
          errors={errors?.idleMinutes}
        />
      </div>
      <Field
        name="maxRuntime"
        type="number"
        inputMode="numeric"
        min={10}
        label={t("maxRuntime")}
        hint={t("maxRuntimeHint")}
        errors={errors?.maxRuntime}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          name="scheduleCron"
          label={t("scheduleCron")}
          hint={t("scheduleCronHint")}
          placeholder="0 20 * * 1-5"
          autoComplete="off"
          errors={errors?.scheduleCron}
        />
        <Field
          name="scheduleTimeZone"
          label={t("scheduleTimeZone")}
          placeholder="Europe/Madrid"
          autoComplete="off"
          errors={errors?.scheduleTimeZone}
        />
      </div>
    </fieldset>
  );
}

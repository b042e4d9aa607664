"use client";

import { useTranslations } from "next-intl";
import { PROJECT_ENVIRONMENTS } from "@/lib/tenancy/options";

export function EnvironmentSelect({
  id,
  defaultValue,
  errors,
}: {
  id: string;
  defaultValue: string;
  errors?: string[];
}) {
  const t = useTranslations("Projects");
  const te = useTranslations("Environments");
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {t("environment")}
      </label>
      <select
        id={id}
        name="environment"
        defaultValue={defaultValue}
        aria-invalid={errors ? true : undefined}
        aria-describedby={`${id}-error`}
        className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
      >
        {PROJECT_ENVIRONMENTS.map((e) => (
          <option key={e} value={e}>
            {te(e)}
          </option>
        ))}
      </select>
      <div id={`${id}-error`} aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
        {errors?.map((e) => (
          <p key={e}>{e}</p>
        ))}
      </div>
    </div>
  );
}

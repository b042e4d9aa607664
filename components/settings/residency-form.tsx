"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";

/** Allowed jurisdictions as checkboxes; none checked means work may run in every region. */
export function ResidencyForm({
  jurisdictions,
  allowed,
  action,
}: {
  jurisdictions: Array<{ code: string; regions: string[] }>;
  allowed: string[];
  action: FormAction;
}) {
  const t = useTranslations("Settings");
  const { formAction, onSubmit, pending, fieldErrors, error, success } = useActionForm(action);
  const errors = fieldErrors?.jurisdictions;
  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
      <fieldset aria-describedby="residency-hint residency-error" className="flex flex-col gap-2">
        <legend className="text-sm font-medium">{t("allowedJurisdictions")}</legend>
        <p id="residency-hint" className="text-xs text-slate-600 dark:text-slate-400">
          {t("residencyHint")}
        </p>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {jurisdictions.map((j) => (
            <div key={j.code} className="flex items-start gap-2 text-sm">
              <input
                id={`jurisdiction-${j.code}`}
                type="checkbox"
                name="jurisdictions"
                value={j.code}
                defaultChecked={allowed.includes(j.code)}
                aria-describedby={`jurisdiction-${j.code}-regions`}
                className="mt-0.5 size-4 accent-orange-700"
              />
              <span className="flex flex-col">
                <label htmlFor={`jurisdiction-${j.code}`} className="font-medium">
                  {j.code}
                </label>
                <span
                  id={`jurisdiction-${j.code}-regions`}
                  className="text-xs text-slate-600 dark:text-slate-400"
                >
                  {j.regions.join(", ")}
                </span>
              </span>
            </div>
          ))}
        </div>
        <div id="residency-error" aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
          {errors?.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      </fieldset>
      <FormMessage message={error ?? success} ok={!error && Boolean(success)} />
      <div>
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? t("saving") : t("saveResidency")}
        </Button>
      </div>
    </form>
  );
}

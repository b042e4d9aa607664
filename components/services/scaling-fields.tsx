"use client";

import { useTranslations } from "next-intl";
import { Field } from "@/components/ui/field";
import { SelectField } from "@/components/ui/select-field";

export type ScalingValues = {
  minReplicas: number;
  maxReplicas: number;
  metric: "rps" | "concurrency";
  target: number;
  scaleUpDelaySeconds: number;
  scaleDownDelaySeconds: number;
  scaleToZeroGraceSeconds: number;
};

const DEFAULTS: ScalingValues = {
  minReplicas: 0,
  maxReplicas: 4,
  metric: "concurrency",
  target: 4,
  scaleUpDelaySeconds: 0,
  scaleDownDelaySeconds: 30,
  scaleToZeroGraceSeconds: 60,
};

/** The scaling settings, shared by the create form and the service page's edit form. */
export function ScalingFields({
  errors,
  initial = DEFAULTS,
}: {
  errors?: Record<string, string[]>;
  initial?: ScalingValues;
}) {
  const t = useTranslations("Services.form");
  const num = (name: keyof ScalingValues, label: string, step = "1") => (
    <Field
      name={name}
      label={label}
      type="number"
      inputMode="decimal"
      step={step}
      defaultValue={String(initial[name])}
      errors={errors?.[name]}
    />
  );
  return (
    <fieldset className="grid gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-2 dark:border-slate-700">
      <legend className="px-1 text-sm font-semibold">{t("scaling")}</legend>
      {num("minReplicas", t("minReplicas"))}
      {num("maxReplicas", t("maxReplicas"))}
      <SelectField
        name="metric"
        label={t("metric")}
        defaultValue={initial.metric}
        options={[
          { value: "concurrency", label: t("metricConcurrency") },
          { value: "rps", label: t("metricRps") },
        ]}
        errors={errors?.metric}
      />
      {num("target", t("target"), "any")}
      {num("scaleUpDelaySeconds", t("scaleUpDelay"))}
      {num("scaleDownDelaySeconds", t("scaleDownDelay"))}
      {num("scaleToZeroGraceSeconds", t("scaleToZeroGrace"))}
    </fieldset>
  );
}

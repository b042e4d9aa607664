"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { SelectField } from "@/components/ui/select-field";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";

export type PolicyFormValues = {
  project: string;
  gpuModelId: string;
  defaultIdlePct: string;
  defaultIdleMinutes: string;
  idleRequired: boolean;
  idleMinutesMax: string;
  idlePctMin: string;
  defaultMaxRuntimeMinutes: string;
  maxRuntimeMinutesMax: string;
  allowSnooze: boolean;
  snoozeMinutesMax: string;
  maxSnoozes: string;
  warningMinutes: string;
};

type Props = {
  action: FormAction;
  initial: PolicyFormValues;
  projects: Array<{ id: string; name: string }>;
  gpuModels: Array<{ id: string; name: string }>;
};

/** Create or replace the policy of one scope (organization, project, GPU model or both). */
export function PolicyForm({ action, initial, projects, gpuModels }: Props) {
  const t = useTranslations("Costs.autoShutdown.form");
  const { formAction, onSubmit, pending, fieldErrors, error, success } = useActionForm(action);
  const num = (name: keyof PolicyFormValues, label: string, hint?: string, max?: number) => (
    <Field
      name={name}
      type="number"
      inputMode="numeric"
      min={0}
      max={max}
      label={label}
      hint={hint}
      defaultValue={String(initial[name])}
      errors={fieldErrors?.[name]}
    />
  );
  const box = (name: "idleRequired" | "allowSnooze", label: string) => (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" name={name} defaultChecked={initial[name]} />
      {label}
    </label>
  );
  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="flex max-w-3xl flex-col gap-5">
      <fieldset className="grid gap-4 rounded-md border border-slate-200 p-4 sm:grid-cols-2 dark:border-slate-800">
        <legend className="px-1 text-sm font-semibold">{t("scope")}</legend>
        <SelectField
          name="project"
          label={t("project")}
          defaultValue={initial.project}
          options={[
            { value: "", label: t("allProjects") },
            ...projects.map((p) => ({ value: p.id, label: p.name })),
          ]}
          errors={fieldErrors?.project}
        />
        <SelectField
          name="gpuModelId"
          label={t("gpuModel")}
          defaultValue={initial.gpuModelId}
          options={[
            { value: "", label: t("allGpus") },
            ...gpuModels.map((g) => ({ value: g.id, label: g.name })),
          ]}
          errors={fieldErrors?.gpuModelId}
        />
        <p className="text-xs text-slate-600 sm:col-span-2 dark:text-slate-400">{t("scopeHint")}</p>
      </fieldset>
      <fieldset className="grid gap-4 rounded-md border border-slate-200 p-4 sm:grid-cols-2 dark:border-slate-800">
        <legend className="px-1 text-sm font-semibold">{t("defaults")}</legend>
        {num("defaultIdlePct", t("defaultIdlePct"), t("defaultIdlePctHint"), 100)}
        {num("defaultIdleMinutes", t("defaultIdleMinutes"), t("optionalHint"))}
        {num("defaultMaxRuntimeMinutes", t("defaultMaxRuntimeMinutes"), t("optionalHint"))}
      </fieldset>
      <fieldset className="grid gap-4 rounded-md border border-slate-200 p-4 sm:grid-cols-2 dark:border-slate-800">
        <legend className="px-1 text-sm font-semibold">{t("limits")}</legend>
        <p className="text-xs text-slate-600 sm:col-span-2 dark:text-slate-400">{t("limitsHint")}</p>
        <div className="sm:col-span-2">{box("idleRequired", t("idleRequired"))}</div>
        {num("idleMinutesMax", t("idleMinutesMax"), t("optionalHint"))}
        {num("idlePctMin", t("idlePctMin"), t("optionalHint"), 100)}
        {num("maxRuntimeMinutesMax", t("maxRuntimeMinutesMax"), t("optionalHint"))}
      </fieldset>
      <fieldset className="grid gap-4 rounded-md border border-slate-200 p-4 sm:grid-cols-2 dark:border-slate-800">
        <legend className="px-1 text-sm font-semibold">{t("warnings")}</legend>
        {num("warningMinutes", t("warningMinutes"), t("warningMinutesHint"))}
        <div className="sm:col-span-2">{box("allowSnooze", t("allowSnooze"))}</div>
        {num("snoozeMinutesMax", t("snoozeMinutesMax"))}
        {num("maxSnoozes", t("maxSnoozes"), undefined, 20)}
      </fieldset>
      <FormMessage message={error ?? success} ok={!error && Boolean(success)} />
      <div>
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? t("saving") : t("save")}
        </Button>
      </div>
    </form>
  );
}

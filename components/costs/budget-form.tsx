"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { SelectField } from "@/components/ui/select-field";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";
import { ThresholdRows, type ThresholdValue } from "./threshold-rows";

export type BudgetFormValues = {
  name: string;
  project: string;
  service: string;
  amountUsd: string;
  thresholds: ThresholdValue[];
  recipientUserIds: string[];
  recipientEmails: string;
  actionAt100: "notify" | "block_launches" | "stop_instances";
  graceMinutes: string;
};

type Props = {
  action: FormAction;
  initial: BudgetFormValues;
  projects: Array<{ id: string; name: string }>;
  services: Array<{ id: string; name: string }>;
  members: Array<{ userId: string; name: string; email: string }>;
  submitLabel: string;
};

const ACTIONS = ["notify", "block_launches", "stop_instances"] as const;

/** Create or edit a budget. The server action validates with the library's schema; nothing is kept on error. */
export function BudgetForm({ action, initial, projects, services, members, submitLabel }: Props) {
  const t = useTranslations("Costs.budgets.form");
  const { formAction, onSubmit, pending, fieldErrors, error } = useActionForm(action);
  const [act, setAct] = useState(initial.actionAt100);
  const errs = (k: string) => fieldErrors?.[k];
  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="flex max-w-2xl flex-col gap-5">
      <Field name="name" label={t("name")} defaultValue={initial.name} required errors={errs("name")} />
      <SelectField
        name="project"
        label={t("scope")}
        defaultValue={initial.project}
        options={[
          { value: "", label: t("scopeOrg") },
          ...projects.map((p) => ({ value: p.id, label: p.name })),
        ]}
        errors={errs("project")}
      />
      <SelectField
        name="service"
        label={t("service")}
        hint={t("serviceHint")}
        defaultValue={initial.service}
        options={[
          { value: "", label: t("serviceNone") },
          ...services.map((s) => ({ value: s.id, label: s.name })),
        ]}
        errors={errs("service")}
      />
      <Field
        name="amountUsd"
        type="number"
        inputMode="decimal"
        min={0.01}
        step={0.01}
        label={t("amount")}
        hint={t("amountHint")}
        defaultValue={initial.amountUsd}
        required
        errors={errs("amountUsd")}
      />
      <ThresholdRows initial={initial.thresholds} errors={fieldErrors} />
      <fieldset
        aria-describedby="recipients-hint"
        className="flex flex-col gap-3 rounded-md border border-slate-200 p-4 dark:border-slate-800"
      >
        <legend className="px-1 text-sm font-semibold">{t("recipients")}</legend>
        <p id="recipients-hint" className="text-xs text-slate-600 dark:text-slate-400">
          {t("recipientsHint")}
        </p>
        <fieldset aria-describedby="field-recipientUserIds-error">
          <legend className="text-sm font-medium">{t("members")}</legend>
          <ul className="mt-1 grid gap-1 sm:grid-cols-2">
            {members.map((m) => (
              <li key={m.userId}>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    name="recipientUserIds"
                    value={m.userId}
                    defaultChecked={initial.recipientUserIds.includes(m.userId)}
                  />
                  <span>
                    {m.name} <span className="text-slate-600 dark:text-slate-400">({m.email})</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
          <div
            id="field-recipientUserIds-error"
            aria-live="polite"
            className="text-sm text-red-700 dark:text-red-400"
          >
            {errs("recipientUserIds")?.map((e) => (
              <p key={e}>{e}</p>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-col gap-1">
          <label htmlFor="field-recipientEmails" className="text-sm font-medium">
            {t("emails")}
          </label>
          <textarea
            id="field-recipientEmails"
            name="recipientEmails"
            rows={2}
            defaultValue={initial.recipientEmails}
            aria-invalid={Boolean(errs("recipientEmails")?.length) || undefined}
            aria-describedby="field-recipientEmails-hint field-recipientEmails-error"
            className={`rounded-md border px-3 py-2 text-sm dark:bg-slate-900 ${
              errs("recipientEmails")?.length ? "border-red-600" : "border-slate-300 dark:border-slate-700"
            }`}
          />
          <p id="field-recipientEmails-hint" className="text-xs text-slate-600 dark:text-slate-400">
            {t("emailsHint")}
          </p>
          <div
            id="field-recipientEmails-error"
            aria-live="polite"
            className="text-sm text-red-700 dark:text-red-400"
          >
            {errs("recipientEmails")?.map((e) => (
              <p key={e}>{e}</p>
            ))}
          </div>
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-2 rounded-md border border-slate-200 p-4 dark:border-slate-800">
        <legend className="px-1 text-sm font-semibold">{t("actionAt100")}</legend>
        {ACTIONS.map((a) => (
          <label key={a} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="actionAt100"
              value={a}
              checked={act === a}
              onChange={() => setAct(a)}
              className="mt-1"
            />
            <span>
              <span className="font-medium">{t(`action.${a}`)}</span>
              <span className="block text-xs text-slate-600 dark:text-slate-400">{t(`actionHint.${a}`)}</span>
            </span>
          </label>
        ))}
        <div className={act === "stop_instances" ? "" : "hidden"}>
          <Field
            name="graceMinutes"
            type="number"
            inputMode="numeric"
            min={0}
            max={10080}
            label={t("grace")}
            hint={t("graceHint")}
            defaultValue={initial.graceMinutes}
            errors={errs("graceMinutes")}
          />
        </div>
        <div aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
          {errs("actionAt100")?.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      </fieldset>
      <FormMessage message={error} />
      <div>
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? t("saving") : submitLabel}
        </Button>
      </div>
    </form>
  );
}

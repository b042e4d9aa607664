"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";

export function SnoozeForm({ action, maxMinutes }: { action: FormAction; maxMinutes: number }) {
  const t = useTranslations("Costs.shutdown");
  const { formAction, onSubmit, pending, fieldErrors, error, success } = useActionForm(action);
  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-3">
      <Field
        name="minutes"
        id="snooze-minutes"
        type="number"
        inputMode="numeric"
        min={5}
        max={maxMinutes}
        defaultValue={Math.min(30, maxMinutes)}
        label={t("minutes")}
        hint={t("minutesHint", { max: maxMinutes })}
        errors={fieldErrors?.minutes}
        className="w-28 bg-white text-slate-900"
      />
      <Button type="submit" disabled={pending} aria-busy={pending} className="mb-6">
        {pending ? t("snoozing") : t("snooze")}
      </Button>
      <div className="basis-full">
        <FormMessage message={error ?? success} ok={!error && Boolean(success)} />
      </div>
    </form>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";
import { SaveRow } from "./save-row";
import { ScalingFields, type ScalingValues } from "./scaling-fields";

/** Edit a running service's scaling settings; refused values keep what was typed, with messages at the fields. */
export function ScalingForm({ action, initial }: { action: FormAction; initial: ScalingValues }) {
  const t = useTranslations("Services.detail");
  const { formAction, onSubmit, pending, fieldErrors, error, state } = useActionForm(action);
  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="flex max-w-2xl flex-col gap-3">
      <ScalingFields errors={fieldErrors} initial={initial} />
      <SaveRow ok={state?.ok} error={error} saved={t("saved")} label={t("save")} pending={pending} />
    </form>
  );
}

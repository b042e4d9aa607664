"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";
import { ScalingFields, type ScalingValues } from "./scaling-fields";

/** Edit a running service's scaling settings; refused values keep what was typed, with messages at the fields. */
export function ScalingForm({ action, initial }: { action: FormAction; initial: ScalingValues }) {
  const t = useTranslations("Services.detail");
  const { formAction, onSubmit, pending, fieldErrors, error, state } = useActionForm(action);
  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="flex max-w-2xl flex-col gap-3">
      <ScalingFields errors={fieldErrors} initial={initial} />
      <FormMessage message={state?.ok ? t("saved") : error} ok={state?.ok} />
      <div>
        <Button type="submit" disabled={pending}>
          {t("save")}
        </Button>
      </div>
    </form>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";

export function OrganizationNameForm({ name, action }: { name: string; action: FormAction }) {
  const t = useTranslations("Settings");
  const { formAction, onSubmit, pending, fieldErrors, error, success } = useActionForm(action);
  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="flex max-w-md flex-col gap-3">
      <Field name="name" label={t("name")} defaultValue={name} required errors={fieldErrors?.name} />
      <FormMessage message={error ?? success} ok={!error && Boolean(success)} />
      <div>
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? t("saving") : t("saveName")}
        </Button>
      </div>
    </form>
  );
}

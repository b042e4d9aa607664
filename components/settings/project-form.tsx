"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";
import { EnvironmentSelect } from "./environment-select";

export function ProjectForm({ action }: { action: FormAction }) {
  const t = useTranslations("Projects");
  const { formAction, onSubmit, pending, formRef, fieldErrors, error, success } = useActionForm(action, {
    resetOnSuccess: true,
  });
  return (
    <form
      ref={formRef}
      action={formAction}
      onSubmit={onSubmit}
      noValidate
      className="flex max-w-md flex-col gap-3"
    >
      <Field name="name" id="new-project-name" label={t("name")} required errors={fieldErrors?.name} />
      <Field
        name="slug"
        id="new-project-slug"
        label={t("slugOptional")}
        hint={t("slugHint")}
        errors={fieldErrors?.slug}
      />
      <EnvironmentSelect
        id="new-project-environment"
        defaultValue="development"
        errors={fieldErrors?.environment}
      />
      <FormMessage message={error ?? success} ok={!error && Boolean(success)} />
      <div>
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? t("creating") : t("create")}
        </Button>
      </div>
    </form>
  );
}

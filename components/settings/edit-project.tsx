"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";
import { EnvironmentSelect } from "./environment-select";

/** Rename a project or change its environment, in a dialog opened from its row. */
export function EditProject({
  project,
  action,
}: {
  project: { id: string; name: string; environment: string };
  action: FormAction;
}) {
  const t = useTranslations("Projects");
  const tc = useTranslations("Common");
  const dialogRef = useRef<HTMLDialogElement>(null);
  const { state, formAction, onSubmit, pending, fieldErrors, error } = useActionForm(action);
  useEffect(() => {
    if (state?.ok) dialogRef.current?.close();
  }, [state]);
  const prefix = `project-${project.id}`;
  return (
    <>
      <Button
        type="button"
        variant="secondary"
        aria-haspopup="dialog"
        aria-label={t("editNamed", { name: project.name })}
        onClick={() => dialogRef.current?.showModal()}
      >
        {t("edit")}
      </Button>
      <Dialog dialogRef={dialogRef} title={t("editTitle", { name: project.name })}>
        <form action={formAction} onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
          <input type="hidden" name="projectId" value={project.id} />
          <Field
            name="name"
            id={`${prefix}-name`}
            label={t("name")}
            defaultValue={project.name}
            required
            errors={fieldErrors?.name}
          />
          <EnvironmentSelect
            id={`${prefix}-environment`}
            defaultValue={project.environment}
            errors={fieldErrors?.environment}
          />
          <FormMessage message={error} />
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => dialogRef.current?.close()}>
              {tc("cancel")}
            </Button>
            <Button type="submit" disabled={pending} aria-busy={pending}>
              {pending ? t("saving") : t("save")}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

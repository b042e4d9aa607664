"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { FormMessage } from "@/components/ui/form-message";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";

/** A one-button form (send a test event, pause/resume, resend) with its outcome announced next to it. */
export function ActionButton({
  action,
  fields,
  label,
  pendingLabel,
  ariaLabel,
}: {
  action: FormAction;
  fields: Record<string, string>;
  label: string;
  pendingLabel: string;
  ariaLabel?: string;
}) {
  const { formAction, onSubmit, pending, error, success } = useActionForm(action);
  return (
    <form action={formAction} onSubmit={onSubmit} className="flex flex-col gap-1">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" variant="secondary" disabled={pending} aria-busy={pending} aria-label={ariaLabel}>
        {pending ? pendingLabel : label}
      </Button>
      <FormMessage message={error ?? success} ok={!error && Boolean(success)} />
    </form>
  );
}

export function EndpointControls({
  id,
  url,
  enabled,
  testAction,
  enableAction,
  deleteAction,
}: {
  id: string;
  url: string;
  enabled: boolean;
  testAction: FormAction;
  enableAction: FormAction;
  deleteAction: FormAction<unknown>;
}) {
  const t = useTranslations("Webhooks");
  return (
    <div className="flex flex-wrap items-start gap-3">
      <ActionButton
        action={testAction}
        fields={{ id }}
        label={t("sendTest")}
        pendingLabel={t("sendingTest")}
      />
      <ActionButton
        action={enableAction}
        fields={{ id, enabled: enabled ? "false" : "true" }}
        label={enabled ? t("pause") : t("resume")}
        pendingLabel="…"
      />
      <ConfirmAction
        trigger={t("delete")}
        title={t("deleteTitle")}
        description={t("deleteDescription", { url })}
        confirmLabel={t("delete")}
        action={deleteAction}
        fields={{ id }}
      />
    </div>
  );
}

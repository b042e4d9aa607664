"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { useActionForm } from "@/components/ui/use-action-form";
import type { ActionResult } from "@/lib/core";

type Action = (prev: ActionResult | null, fd: FormData) => Promise<ActionResult>;

export function DecisionForm({
  action,
  requestId,
  requestedGpus,
  label,
}: {
  action: Action;
  requestId: string;
  requestedGpus: number;
  label: string;
}) {
  const t = useTranslations("AdminQuotaRequests");
  const { state, formAction, onSubmit, pending } = useActionForm(action, { resetOnSuccess: true });
  const fe = state && !state.ok ? state.fieldErrors : undefined;
  const p = `qr-${requestId}`;
  return (
    <form action={formAction} onSubmit={onSubmit} aria-label={label} className="flex flex-col gap-2">
      <input type="hidden" name="requestId" value={requestId} />
      <fieldset className="flex gap-4 text-sm">
        <legend className="sr-only">{t("decision")}</legend>
        <label className="flex items-center gap-1">
          <input type="radio" name="decision" value="approve" defaultChecked /> {t("approve")}
        </label>
        <label className="flex items-center gap-1">
          <input type="radio" name="decision" value="deny" /> {t("deny")}
        </label>
      </fieldset>
      {fe?.decision && <p className="text-sm text-red-700 dark:text-red-400">{fe.decision.join(" ")}</p>}
      <Field
        id={`${p}-granted`}
        name="grantedGpus"
        label={t("granted")}
        hint={t("grantedHint", { requested: requestedGpus })}
        inputMode="numeric"
        errors={fe?.grantedGpus}
      />
      <Field id={`${p}-message`} name="message" label={t("message")} errors={fe?.message} />
      <div>
        <Button type="submit" disabled={pending}>
          {t("submit")}
        </Button>
        <FormMessage message={state?.message} ok={state?.ok} />
      </div>
    </form>
  );
}

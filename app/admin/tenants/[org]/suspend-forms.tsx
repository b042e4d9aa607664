"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { useActionForm } from "@/components/ui/use-action-form";
import { reactivateTenantAction, suspendTenantAction } from "./actions";

/** Suspend (with a reason and a notice for running work) or reactivate, depending on the current state. */
export function SuspendForms({ org, suspended }: { org: string; suspended: boolean }) {
  const t = useTranslations("Admin.tenant");
  const {
    state: sState,
    formAction: suspend,
    onSubmit: onSuspend,
    pending: sPending,
  } = useActionForm(suspendTenantAction, { resetOnSuccess: true });
  const {
    state: rState,
    formAction: reactivate,
    onSubmit: onReactivate,
    pending: rPending,
  } = useActionForm(reactivateTenantAction, { resetOnSuccess: true });
  const errs = sState && !sState.ok ? sState.fieldErrors : undefined;
  if (suspended) {
    return (
      <form
        action={reactivate}
        onSubmit={onReactivate}
        className="flex flex-col gap-3"
        aria-label={t("reactivateForm")}
      >
        <input type="hidden" name="org" value={org} />
        <div>
          <Button type="submit" disabled={rPending}>
            {rPending ? t("reactivating") : t("reactivate")}
          </Button>
        </div>
        <FormMessage message={rState?.message ?? sState?.message} ok={rState ? rState.ok : sState?.ok} />
      </form>
    );
  }
  return (
    <form
      action={suspend}
      onSubmit={onSuspend}
      className="flex max-w-xl flex-col gap-3"
      aria-label={t("suspendForm")}
    >
      <input type="hidden" name="org" value={org} />
      <Field
        name="reason"
        label={t("reason")}
        required
        maxLength={500}
        errors={errs?.reason}
        hint={t("reasonHint")}
      />
      <Field
        name="noticeMinutes"
        label={t("notice")}
        type="number"
        min={0}
        max={1440}
        defaultValue={60}
        errors={errs?.noticeMinutes}
        hint={t("noticeHint")}
      />
      <div>
        <Button type="submit" variant="danger" disabled={sPending}>
          {sPending ? t("suspending") : t("suspend")}
        </Button>
      </div>
      <FormMessage message={sState?.message ?? rState?.message} ok={sState ? sState.ok : rState?.ok} />
    </form>
  );
}

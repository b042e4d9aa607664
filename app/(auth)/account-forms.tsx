"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";

/** Forms of the account pages. Each posts to its server action, so they work without JavaScript. */
export function ConfirmEmailForm({ action }: { action: FormAction }) {
  const t = useTranslations("Account");
  const { formAction, onSubmit, pending, error } = useActionForm(action);
  return (
    <form action={formAction} onSubmit={onSubmit} className="flex flex-col gap-3">
      <FormMessage message={error} />
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? t("verifying") : t("verifyButton")}
      </Button>
    </form>
  );
}

export function RequestResetForm({ action }: { action: FormAction }) {
  const t = useTranslations("Account");
  const ta = useTranslations("Auth");
  const { state, formAction, onSubmit, pending, fieldErrors, error } = useActionForm(action);
  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <Field
        name="email"
        type="email"
        label={ta("email")}
        autoComplete="email"
        required
        errors={fieldErrors?.email}
      />
      <FormMessage message={state?.ok ? t("resetRequested") : error} ok={state?.ok} />
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? t("sending") : t("sendLink")}
      </Button>
    </form>
  );
}

export function ResetPasswordForm({ action }: { action: FormAction }) {
  const t = useTranslations("Account");
  const ta = useTranslations("Auth");
  const { formAction, onSubmit, pending, fieldErrors, error } = useActionForm(action);
  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <Field
        name="password"
        type="password"
        label={t("newPassword")}
        autoComplete="new-password"
        required
        hint={ta("passwordHint")}
        errors={fieldErrors?.password}
      />
      <FormMessage message={error} />
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? t("saving") : t("savePassword")}
      </Button>
    </form>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, startTransition, useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { signUpAction } from "../actions";

/**
 * Posts to the sign-up action through the form's `action` (works before JavaScript loads; the password is
 * never in a URL). The action creates the account, signs in on the server and redirects into the new
 * organization. With JavaScript, onSubmit runs the same action and keeps what was typed on field errors.
 */
export function SignUpForm() {
  const t = useTranslations("Auth");
  const [state, action, pending] = useActionState(signUpAction, null);
  const fe = state && !state.ok ? state.fieldErrors : undefined;

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const fd = new FormData(e.currentTarget);
    startTransition(() => action(fd));
  }

  return (
    <form action={action} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <Field name="name" label={t("name")} autoComplete="name" required errors={fe?.name} maxLength={200} />
      <Field name="email" type="email" label={t("email")} autoComplete="email" required errors={fe?.email} />
      <Field
        name="password"
        type="password"
        label={t("password")}
        autoComplete="new-password"
        required
        hint={t("passwordHint")}
        errors={fe?.password}
      />
      <Field
        name="organizationName"
        label={t("organizationName")}
        autoComplete="organization"
        required
        errors={fe?.organizationName}
      />
      <FormMessage message={state && !state.ok ? state.message : undefined} />
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? t("creating") : t("createAccount")}
      </Button>
    </form>
  );
}

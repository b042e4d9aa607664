"use client";

import { signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { type FormEvent, startTransition, useActionState, useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { signUpAction } from "../actions";

export function SignUpForm() {
  const t = useTranslations("Auth");
  const [state, action, pending] = useActionState(signUpAction, null);
  // Kept from the submission to sign in once the account exists. Submitting through onSubmit (not the form's
  // action prop) also keeps what was typed when the server answers with field errors.
  const credentials = useRef({ email: "", password: "" });
  const fe = state && !state.ok ? state.fieldErrors : undefined;

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const fd = new FormData(e.currentTarget);
    credentials.current = {
      email: String(fd.get("email") ?? ""),
      password: String(fd.get("password") ?? ""),
    };
    startTransition(() => action(fd));
  }

  // After the account exists, sign in with the same credentials and land in the new organization.
  useEffect(() => {
    if (state?.ok && state.data) {
      void signIn("credentials", { ...credentials.current, callbackUrl: `/${state.data.orgSlug}/catalog` });
    }
  }, [state]);

  const busy = pending || Boolean(state?.ok);
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
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
      <Button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? t("creating") : t("createAccount")}
      </Button>
    </form>
  );
}

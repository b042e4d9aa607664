"use client";

import { signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { useActionState, useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { signUpAction } from "../actions";

export function SignUpForm() {
  const t = useTranslations("Auth");
  const [state, action, pending] = useActionState(signUpAction, null);
  const formRef = useRef<HTMLFormElement>(null);
  const fe = state && !state.ok ? state.fieldErrors : undefined;

  // After the account exists, sign in with the same credentials and land in the new organization.
  useEffect(() => {
    if (state?.ok && state.data && formRef.current) {
      const fd = new FormData(formRef.current);
      void signIn("credentials", {
        email: String(fd.get("email")),
        password: String(fd.get("password")),
        callbackUrl: `/${state.data.orgSlug}/catalog`,
      });
    }
  }, [state]);

  return (
    <form ref={formRef} action={action} noValidate className="flex flex-col gap-4">
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
      <Button type="submit" disabled={pending || Boolean(state?.ok)} aria-busy={pending}>
        {pending || state?.ok ? t("creating") : t("createAccount")}
      </Button>
    </form>
  );
}

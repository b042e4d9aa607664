"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, startTransition, useActionState } from "react";
import { signInWith } from "@/components/ui/auth-client";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { signInAction } from "../actions";

/**
 * The form posts to a server action through its `action`: before JavaScript has loaded the browser submits it
 * natively as a POST (never a GET with the password in the URL); once it has, the same action runs from
 * onSubmit, which keeps what was typed when the answer is an error.
 */
export function SignInForm({ callbackUrl, sso }: { callbackUrl: string; sso: { name: string } | null }) {
  const t = useTranslations("Auth");
  const [state, action, pending] = useActionState(signInAction, null);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const fd = new FormData(e.currentTarget);
    startTransition(() => action(fd));
  }

  return (
    <div className="flex flex-col gap-6">
      <form action={action} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <input type="hidden" name="callbackUrl" value={callbackUrl} />
        <Field name="email" type="email" label={t("email")} autoComplete="email" required />
        <Field
          name="password"
          type="password"
          label={t("password")}
          autoComplete="current-password"
          required
        />
        <FormMessage message={state && !state.ok ? state.message : undefined} />
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? t("signingIn") : t("signIn")}
        </Button>
      </form>
      {sso ? (
        <Button type="button" variant="secondary" onClick={() => void signInWith("oidc", callbackUrl)}>
          {t("signInWith", { provider: sso.name })}
        </Button>
      ) : null}
    </div>
  );
}

"use client";

import { signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { type FormEvent, startTransition, useActionState, useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import type { ActionResult } from "@/lib/core";

type Joined = ActionResult<{ orgSlug: string; email: string }>;

/** Create an account for the invited email, then sign in with it and land in the organization. */
export function JoinForm({
  email,
  action,
}: {
  email: string;
  action: (prev: Joined | null, fd: FormData) => Promise<Joined>;
}) {
  const t = useTranslations("Invite");
  const ta = useTranslations("Auth");
  const [state, dispatch, pending] = useActionState(action, null);
  // The password is needed once more, to sign in after the account exists; it never leaves this component.
  const password = useRef("");
  const fe = state && !state.ok ? state.fieldErrors : undefined;

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const fd = new FormData(e.currentTarget);
    password.current = String(fd.get("password") ?? "");
    startTransition(() => dispatch(fd));
  }

  useEffect(() => {
    if (state?.ok && state.data) {
      void signIn("credentials", {
        email: state.data.email,
        password: password.current,
        callbackUrl: `/${state.data.orgSlug}/catalog`,
      });
    }
  }, [state]);

  const busy = pending || Boolean(state?.ok);
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <Field name="email" type="email" label={ta("email")} value={email} readOnly hint={t("emailFixed")} />
      <Field name="name" label={ta("name")} autoComplete="name" required errors={fe?.name} />
      <Field
        name="password"
        type="password"
        label={ta("password")}
        autoComplete="new-password"
        required
        hint={ta("passwordHint")}
        errors={fe?.password}
      />
      <FormMessage message={state && !state.ok ? (fe?.email?.[0] ?? state.message) : undefined} />
      <Button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? t("joining") : t("createAndJoin")}
      </Button>
    </form>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { SelectField } from "@/components/ui/select-field";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";
import { SaveRow } from "./save-row";
import { TokenOnce } from "./token-once";

/**
 * Who may call an existing service: public, or service token. Choosing "token" issues a new token (shown once
 * here); choosing it again on a token service rotates it.
 */
export function AuthForm({
  action,
  current,
}: {
  action: FormAction<{ token: string | null }>;
  current: "token" | "public";
}) {
  const t = useTranslations("Services.access");
  const tf = useTranslations("Services.form");
  const { state, formAction, onSubmit, pending, fieldErrors, error } = useActionForm(action);
  const token = state?.ok ? state.data?.token : null;
  return (
    <div className="flex flex-col gap-3">
      {token ? <TokenOnce heading={t("newToken")} token={token} /> : null}
      <form action={formAction} onSubmit={onSubmit} noValidate className="flex max-w-2xl flex-col gap-3">
        <SelectField
          name="auth"
          label={tf("auth")}
          hint={t("hint")}
          defaultValue={current}
          options={[
            { value: "token", label: tf("authToken") },
            { value: "public", label: tf("authPublic") },
          ]}
          errors={fieldErrors?.auth}
        />
        <SaveRow ok={state?.ok} error={error} saved={t("saved")} label={t("save")} pending={pending} />
      </form>
    </div>
  );
}

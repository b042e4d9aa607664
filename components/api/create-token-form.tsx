"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { SelectField } from "@/components/ui/select-field";
import type { FormAction } from "@/components/ui/use-action-form";
import { useActionForm } from "@/components/ui/use-action-form";
import { curlList } from "./curl-example";
import { SecretReveal } from "./secret-reveal";

export type CreatedToken = { secret: string; name: string };

export function CreateTokenForm({
  action,
  expiryDays,
  origin,
  orgSlug,
  operator = false,
}: {
  action: FormAction<CreatedToken>;
  expiryDays: readonly number[];
  origin: string;
  orgSlug: string;
  /** Platform operators may also create admin tokens (for /api/v1/admin). */
  operator?: boolean;
}) {
  const t = useTranslations("ApiTokens");
  const { state, formAction, onSubmit, pending, formRef, fieldErrors, error, success } = useActionForm(
    action,
    {
      resetOnSuccess: true,
    },
  );
  const [stored, setStored] = useState<string | null>(null);
  const secret = state?.ok ? state.data?.secret : undefined;
  const expiryError = fieldErrors?.expiresInDays;
  return (
    <div className="flex flex-col gap-4">
      <form
        ref={formRef}
        action={formAction}
        onSubmit={onSubmit}
        noValidate
        className="flex max-w-md flex-col gap-3"
      >
        <Field
          name="name"
          id="token-name"
          label={t("name")}
          hint={t("nameHint")}
          required
          maxLength={60}
          autoComplete="off"
          errors={fieldErrors?.name}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="token-expiry" className="text-sm font-medium">
            {t("expiry")}
          </label>
          <select
            id="token-expiry"
            name="expiresInDays"
            defaultValue="90"
            aria-invalid={expiryError ? true : undefined}
            aria-describedby="token-expiry-error"
            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
          >
            {expiryDays.map((d) => (
              <option key={d} value={d}>
                {t("expiryDays", { days: d })}
              </option>
            ))}
            <option value="never">{t("expiryNever")}</option>
          </select>
          <div id="token-expiry-error" aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
            {expiryError?.map((e) => (
              <p key={e}>{e}</p>
            ))}
          </div>
        </div>
        <SelectField
          name="scope"
          id="token-scope"
          label={t("scope")}
          hint={operator ? t("scopeHintOperator") : t("scopeHint")}
          defaultValue="write"
          errors={fieldErrors?.scope}
          options={[
            { value: "write", label: t("scopes.write") },
            { value: "read", label: t("scopes.read") },
            ...(operator ? [{ value: "admin", label: t("scopes.admin") }] : []),
          ]}
        />
        <FormMessage message={error ?? success} ok={!error && Boolean(success)} />
        <div>
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? t("creating") : t("create")}
          </Button>
        </div>
      </form>
      {secret && stored !== secret ? (
        <SecretReveal
          secret={secret}
          curl={curlList(origin, orgSlug, secret)}
          onDone={() => setStored(secret)}
        />
      ) : null}
    </div>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";

/**
 * Create an account for the invited email and join. Posts to the action (works without JavaScript), which
 * signs the new person in on the server and redirects into the organization.
 */
export function JoinForm({ email, action }: { email: string; action: FormAction }) {
  const t = useTranslations("Invite");
  const ta = useTranslations("Auth");
  const { formAction, onSubmit, pending, fieldErrors: fe, error } = useActionForm(action);
  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
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
      <FormMessage message={error ? (fe?.email?.[0] ?? error) : undefined} />
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? t("joining") : t("createAndJoin")}
      </Button>
    </form>
  );
}

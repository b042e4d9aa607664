"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";
import type { OrgRole } from "@/lib/access";

export function InviteForm({ roles, action }: { roles: OrgRole[]; action: FormAction }) {
  const t = useTranslations("Members");
  const tr = useTranslations("Roles");
  const { formAction, onSubmit, pending, formRef, fieldErrors, error, success } = useActionForm(action, {
    resetOnSuccess: true,
  });
  const roleErrors = fieldErrors?.role;
  return (
    <form
      ref={formRef}
      action={formAction}
      onSubmit={onSubmit}
      noValidate
      className="flex max-w-md flex-col gap-3"
    >
      <Field
        name="email"
        type="email"
        label={t("inviteEmail")}
        autoComplete="off"
        required
        errors={fieldErrors?.email}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor="invite-role" className="text-sm font-medium">
          {t("inviteRole")}
        </label>
        <select
          id="invite-role"
          name="role"
          defaultValue="member"
          aria-invalid={roleErrors ? true : undefined}
          aria-describedby="invite-role-hint invite-role-error"
          className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
        >
          {roles.map((r) => (
            <option key={r} value={r}>
              {tr(r)}
            </option>
          ))}
        </select>
        <p id="invite-role-hint" className="text-xs text-slate-600 dark:text-slate-400">
          {t("roleHint")}
        </p>
        <div id="invite-role-error" aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
          {roleErrors?.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      </div>
      <FormMessage message={error ?? success} ok={!error && Boolean(success)} />
      <div>
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? t("sending") : t("sendInvitation")}
        </Button>
      </div>
    </form>
  );
}

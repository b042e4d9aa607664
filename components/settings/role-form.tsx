"use client";

import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";
import type { OrgRole } from "@/lib/access";

/** A member's role as a select with an explicit save, so moving through options never changes anything. */
export function RoleForm({
  member,
  roles,
  action,
}: {
  member: { userId: string; name: string; role: OrgRole };
  roles: OrgRole[];
  action: FormAction;
}) {
  const t = useTranslations("Members");
  const tr = useTranslations("Roles");
  const { formAction, onSubmit, pending, error, success } = useActionForm(action);
  const msgId = `role-msg-${member.userId}`;
  return (
    <form action={formAction} onSubmit={onSubmit} className="flex flex-col gap-1">
      <input type="hidden" name="userId" value={member.userId} />
      <div className="flex items-center gap-2">
        <select
          name="role"
          defaultValue={member.role}
          aria-label={t("roleFor", { name: member.name })}
          aria-describedby={error ? msgId : undefined}
          className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
        >
          {roles.map((r) => (
            <option key={r} value={r}>
              {tr(r)}
            </option>
          ))}
        </select>
        <Button
          type="submit"
          variant="secondary"
          disabled={pending}
          aria-busy={pending}
          aria-label={t("saveRoleFor", { name: member.name })}
        >
          {t("saveRole")}
        </Button>
      </div>
      <Alert id={msgId}>{error}</Alert>
      <p role="status" className="text-sm text-green-700 dark:text-green-400">
        {success}
      </p>
    </form>
  );
}

"use client";

import { useFormatter, useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";
import type { OrgRole } from "@/lib/access";

type Invitation = {
  id: string;
  email: string;
  role: OrgRole;
  expired: boolean;
  expiresAt: string;
  manageable: boolean;
};

export function InvitationsList({
  invitations,
  resend,
  revoke,
}: {
  invitations: Invitation[];
  resend: FormAction;
  revoke: FormAction;
}) {
  const t = useTranslations("Members");
  const tr = useTranslations("Roles");
  const format = useFormatter();
  if (invitations.length === 0) return <p className="text-sm">{t("noInvitations")}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 dark:border-slate-700">
          <tr>
            <th scope="col" className="py-2 pr-4">
              {t("email")}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t("role")}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t("status")}
            </th>
            <th scope="col" className="py-2">
              {t("actions")}
            </th>
          </tr>
        </thead>
        <tbody>
          {invitations.map((inv) => {
            const expires = new Date(inv.expiresAt);
            return (
              <tr key={inv.id} className="border-b border-slate-100 align-top dark:border-slate-800">
                <th scope="row" className="py-2 pr-4 font-medium">
                  {inv.email}
                </th>
                <td className="py-2 pr-4">{tr(inv.role)}</td>
                <td className="py-2 pr-4">
                  <time
                    dateTime={inv.expiresAt}
                    title={format.dateTime(expires, { dateStyle: "long", timeStyle: "short" })}
                  >
                    {inv.expired
                      ? t("expired")
                      : t("pendingUntil", { date: format.dateTime(expires, { dateStyle: "medium" }) })}
                  </time>
                </td>
                <td className="py-2">
                  {inv.manageable ? (
                    <div className="flex flex-wrap gap-2">
                      <ResendButton invitation={inv} action={resend} />
                      <ConfirmAction
                        trigger={t("revoke")}
                        triggerLabel={t("revokeFor", { email: inv.email })}
                        title={t("revokeTitle")}
                        description={t("revokeBody", { email: inv.email })}
                        confirmLabel={t("revokeConfirm")}
                        action={revoke as FormAction<unknown>}
                        fields={{ invitationId: inv.id }}
                      />
                    </div>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function ResendButton({ invitation, action }: { invitation: Invitation; action: FormAction }) {
  const t = useTranslations("Members");
  const { formAction, onSubmit, pending, error, success } = useActionForm(action);
  return (
    <form action={formAction} onSubmit={onSubmit} className="flex flex-col gap-1">
      <input type="hidden" name="invitationId" value={invitation.id} />
      <Button
        type="submit"
        variant="secondary"
        disabled={pending}
        aria-busy={pending}
        aria-label={t("resendFor", { email: invitation.email })}
      >
        {pending ? t("sending") : t("resend")}
      </Button>
      <p role="status" className="text-sm">
        {error ? <span className="text-red-700 dark:text-red-400">{error}</span> : success}
      </p>
    </form>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { ConfirmAction } from "@/components/ui/confirm-action";
import type { FormAction } from "@/components/ui/use-action-form";

export function RemoveMember({
  member,
  orgName,
  action,
}: {
  member: { userId: string; name: string };
  orgName: string;
  action: FormAction;
}) {
  const t = useTranslations("Members");
  return (
    <ConfirmAction
      trigger={t("remove")}
      triggerLabel={t("removeNamed", { name: member.name })}
      title={t("removeTitle", { name: member.name })}
      description={t("removeBody", { name: member.name, org: orgName })}
      confirmLabel={t("removeConfirm")}
      action={action as FormAction<unknown>}
      fields={{ userId: member.userId }}
    />
  );
}

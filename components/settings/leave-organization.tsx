"use client";

import { useTranslations } from "next-intl";
import { ConfirmAction } from "@/components/ui/confirm-action";
import type { FormAction } from "@/components/ui/use-action-form";

export function LeaveOrganization({ orgName, action }: { orgName: string; action: FormAction }) {
  const t = useTranslations("Settings");
  return (
    <ConfirmAction
      trigger={t("leave")}
      title={t("leaveTitle", { org: orgName })}
      description={t("leaveBody")}
      confirmLabel={t("leaveConfirm")}
      action={action as FormAction<unknown>}
      fields={{}}
    />
  );
}

"use client";

import { useTranslations } from "next-intl";
import { ConfirmAction } from "@/components/ui/confirm-action";
import type { FormAction } from "@/components/ui/use-action-form";

export function RevokeToken({
  token,
  action,
}: {
  token: { id: string; name: string; prefix: string };
  action: FormAction;
}) {
  const t = useTranslations("ApiTokens");
  return (
    <ConfirmAction
      trigger={t("revoke")}
      triggerLabel={t("revokeNamed", { name: token.name })}
      title={t("revokeTitle", { name: token.name })}
      description={t("revokeBody", { prefix: token.prefix })}
      confirmLabel={t("revokeConfirm")}
      action={action as FormAction<unknown>}
      fields={{ tokenId: token.id }}
    />
  );
}

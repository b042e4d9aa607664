"use client";

import { useTranslations } from "next-intl";
import { ConfirmAction } from "@/components/ui/confirm-action";
import type { FormAction } from "@/components/ui/use-action-form";

export function DeletePolicy({ scope, action }: { scope: string; action: FormAction<unknown> }) {
  const t = useTranslations("Costs.autoShutdown.delete");
  return (
    <ConfirmAction
      trigger={t("trigger")}
      triggerLabel={t("triggerLabel", { scope })}
      title={t("title", { scope })}
      description={t("body")}
      confirmLabel={t("confirm")}
      action={action}
      fields={{}}
    />
  );
}

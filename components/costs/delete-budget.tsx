"use client";

import { useTranslations } from "next-intl";
import { ConfirmAction } from "@/components/ui/confirm-action";
import type { FormAction } from "@/components/ui/use-action-form";

/** Delete behind a confirmation that names the budget. */
export function DeleteBudget({ name, action }: { name: string; action: FormAction<unknown> }) {
  const t = useTranslations("Costs.budgets.delete");
  return (
    <ConfirmAction
      trigger={t("trigger")}
      title={t("title", { name })}
      description={t("body")}
      confirmLabel={t("confirm")}
      action={action}
      fields={{}}
    />
  );
}

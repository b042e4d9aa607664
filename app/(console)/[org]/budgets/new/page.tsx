import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { BudgetForm } from "@/components/costs/budget-form";
import { roleAtLeast } from "@/lib/access";
import { DEFAULT_BUDGET_THRESHOLDS } from "@/lib/db/schema";
import { getOrgPageContext } from "../../org-context";
import { createBudgetAction } from "../actions";
import { budgetFormOptions } from "../form-options";

export default async function NewBudgetPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { ctx, role } = await getOrgPageContext(slug);
  const t = await getTranslations("Costs.budgets");
  const canEdit = roleAtLeast(role, "admin");
  return (
    <div className="flex flex-col gap-4">
      <nav aria-label={t("breadcrumb")} className="text-sm">
        <Link href={`/${slug}/budgets`} className="text-orange-800 underline dark:text-orange-300">
          {t("back")}
        </Link>
      </nav>
      <h1 className="text-2xl font-semibold">{t("newTitle")}</h1>
      {canEdit ? (
        <BudgetForm
          action={createBudgetAction.bind(null, slug)}
          {...(await budgetFormOptions(ctx, slug))}
          submitLabel={t("form.create")}
          initial={{
            name: "",
            project: "",
            service: "",
            amountUsd: "",
            thresholds: DEFAULT_BUDGET_THRESHOLDS,
            recipientUserIds: [],
            recipientEmails: "",
            actionAt100: "notify",
            graceMinutes: "60",
          }}
        />
      ) : (
        <p role="note" className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
          {t("adminsOnly")}
        </p>
      )}
    </div>
  );
}

import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { BudgetForm } from "@/components/costs/budget-form";
import { roleAtLeast } from "@/lib/access";
import { getOrgPageContext } from "../../../org-context";
import { updateBudgetAction } from "../../actions";
import { budgetFormOptions } from "../../form-options";
import { loadBudget } from "../load";

export default async function EditBudgetPage({ params }: { params: Promise<{ org: string; id: string }> }) {
  const { org: slug, id } = await params;
  const { ctx, role } = await getOrgPageContext(slug);
  const [t, budget] = await Promise.all([getTranslations("Costs.budgets"), loadBudget(ctx, slug, id)]);
  const canEdit = roleAtLeast(role, "admin");
  return (
    <div className="flex flex-col gap-4">
      <nav aria-label={t("breadcrumb")} className="text-sm">
        <Link
          href={`/${slug}/budgets/${budget.id}`}
          className="text-orange-800 underline dark:text-orange-300"
        >
          {t("backToBudget", { name: budget.name })}
        </Link>
      </nav>
      <h1 className="text-2xl font-semibold">{t("editTitle", { name: budget.name })}</h1>
      {canEdit ? (
        <BudgetForm
          action={updateBudgetAction.bind(null, slug, budget.id)}
          {...(await budgetFormOptions(ctx, slug))}
          submitLabel={t("form.save")}
          initial={{
            name: budget.name,
            project: budget.serviceId ? "" : (budget.projectId ?? ""),
            service: budget.serviceId ?? "",
            amountUsd: budget.amountUsd,
            thresholds: budget.thresholds,
            recipientUserIds: budget.recipientUserIds,
            recipientEmails: budget.recipientEmails.join("\n"),
            actionAt100: budget.actionAt100,
            graceMinutes: String(budget.graceMinutes),
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

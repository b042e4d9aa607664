import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { BudgetsTable } from "@/components/costs/budgets-table";
import { roleAtLeast } from "@/lib/access";
import { listBudgets } from "@/lib/budgets";
import { getOrgPageContext } from "../../org-context";

export default async function BudgetsPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { ctx, role } = await getOrgPageContext(slug);
  const [t, budgets] = await Promise.all([getTranslations("Costs.budgets"), listBudgets(ctx, slug)]);
  const canEdit = roleAtLeast(role, "admin");
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <div className="flex flex-wrap items-center gap-3 text-sm">
          {canEdit ? (
            <Link
              href={`/${slug}/settings/auto-shutdown`}
              className="text-orange-800 underline dark:text-orange-300"
            >
              {t("autoShutdownLink")}
            </Link>
          ) : null}
          {canEdit ? (
            <Link
              href={`/${slug}/budgets/new`}
              className="rounded-md bg-orange-700 px-3 py-2 font-medium text-white hover:bg-orange-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600"
            >
              {t("new")}
            </Link>
          ) : null}
        </div>
      </div>
      <p className="max-w-3xl text-sm text-slate-700 dark:text-slate-300">{t("intro")}</p>
      {budgets.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 p-6 text-center dark:border-slate-700">
          <h2 className="text-lg font-semibold">{t("emptyHeading")}</h2>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
            {canEdit ? t("emptyAdmin") : t("empty")}
          </p>
        </div>
      ) : (
        <BudgetsTable org={slug} budgets={budgets} />
      )}
    </div>
  );
}

import { getTranslations } from "next-intl/server";
import type { BudgetStatus } from "@/lib/budgets";

const STYLE: Record<BudgetStatus, string> = {
  ok: "border-green-700 text-green-800 dark:border-green-400 dark:text-green-300",
  warning: "border-amber-700 text-amber-800 dark:border-amber-400 dark:text-amber-300",
  exceeded: "border-red-700 text-red-800 dark:border-red-400 dark:text-red-300",
};
const ICON: Record<BudgetStatus, string> = { ok: "✓", warning: "!", exceeded: "✕" };

/** The budget's state as a word (and a symbol), never by colour alone. */
export async function BudgetStatusBadge({ status, blocks }: { status: BudgetStatus; blocks: boolean }) {
  const t = await getTranslations("Costs.budgets.status");
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <span className={`rounded-full border px-2 py-0.5 text-xs font-medium ${STYLE[status]}`}>
        <span aria-hidden="true">{ICON[status]} </span>
        {t(status)}
      </span>
      {blocks ? (
        <span className="rounded-full border border-red-700 px-2 py-0.5 text-xs font-medium text-red-800 dark:border-red-400 dark:text-red-300">
          {t("blocking")}
        </span>
      ) : null}
    </span>
  );
}

"use server";

import { orgAction } from "@/app/_kit/org-action";
import { budgetInputFromForm, toBudgetFormErrors } from "@/components/costs/budget-form-data";
import { createBudget, deleteBudget, updateBudget } from "@/lib/budgets";
import type { ActionResult } from "@/lib/core";

type Prev = ActionResult<unknown> | null;
// The banner in every console page reflects budgets too, hence the layout.
const opts = (label: string) => ({
  label,
  area: "Costs.errors",
  revalidate: { path: "", type: "layout" as const },
});
// Threshold rows are posted as parallel lists; the library's paths (thresholds.2.pct) are re-keyed to them.
const reshape = (failed: ActionResult<never>, fd: FormData) =>
  !failed.ok && failed.fieldErrors
    ? { ...failed, fieldErrors: toBudgetFormErrors(failed.fieldErrors, budgetInputFromForm(fd)) }
    : failed;

export const createBudgetAction = orgAction<[Prev, FormData]>(
  { ...opts("budget.create"), reshape: (failed, _prev, fd) => reshape(failed, fd) },
  async (ctx, orgSlug, _prev, fd) => {
    const row = await createBudget(ctx, orgSlug, budgetInputFromForm(fd));
    return { redirectTo: `/${orgSlug}/budgets/${row.id}` };
  },
);

export const updateBudgetAction = orgAction<[string, Prev, FormData]>(
  { ...opts("budget.update"), reshape: (failed, _id, _prev, fd) => reshape(failed, fd) },
  async (ctx, orgSlug, budgetId, _prev, fd) => {
    const row = await updateBudget(ctx, orgSlug, budgetId, budgetInputFromForm(fd));
    return { redirectTo: `/${orgSlug}/budgets/${row.id}` };
  },
);

export const deleteBudgetAction = orgAction(
  opts("budget.delete"),
  async (ctx, orgSlug, budgetId: string, _prev: Prev, _fd: FormData) => {
    await deleteBudget(ctx, orgSlug, budgetId);
    return { redirectTo: `/${orgSlug}/budgets` };
  },
);

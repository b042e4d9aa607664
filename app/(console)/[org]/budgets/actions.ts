"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { costActionError } from "@/components/costs/action-error";
import { budgetInputFromForm, toBudgetFormErrors } from "@/components/costs/budget-form-data";
import { requireUserCtx } from "@/lib/auth/session";
import { createBudget, deleteBudget, updateBudget } from "@/lib/budgets";
import type { ActionResult } from "@/lib/core";

type Prev = ActionResult | null;

async function save(orgSlug: string, fd: FormData, budgetId: string | null): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  const input = budgetInputFromForm(fd);
  let id: string;
  try {
    const row = budgetId
      ? await updateBudget(ctx, orgSlug, budgetId, input)
      : await createBudget(ctx, orgSlug, input);
    id = row.id;
  } catch (err) {
    const result = await costActionError(err, budgetId ? "budget.update" : "budget.create");
    if (!result.ok && result.fieldErrors) {
      return { ...result, fieldErrors: toBudgetFormErrors(result.fieldErrors, input) };
    }
    return result;
  }
  // The banner in every console page reflects budgets too.
  revalidatePath(`/${orgSlug}`, "layout");
  redirect(`/${orgSlug}/budgets/${id}`);
}

export async function createBudgetAction(orgSlug: string, _prev: Prev, fd: FormData) {
  return save(orgSlug, fd, null);
}

export async function updateBudgetAction(orgSlug: string, budgetId: string, _prev: Prev, fd: FormData) {
  return save(orgSlug, fd, budgetId);
}

export async function deleteBudgetAction(
  orgSlug: string,
  budgetId: string,
  _prev: ActionResult<unknown> | null,
  _fd: FormData,
): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    await deleteBudget(ctx, orgSlug, budgetId);
  } catch (err) {
    return costActionError(err, "budget.delete");
  }
  revalidatePath(`/${orgSlug}`, "layout");
  redirect(`/${orgSlug}/budgets`);
}

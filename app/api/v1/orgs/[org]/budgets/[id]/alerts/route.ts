import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { budgetAlertView, getBudget, listBudgetAlerts } from "@/lib/budgets";

/** GET: the budget's alert history, newest first (any role). Another organization's budget is a 404. */
export const GET = apiHandler<{ org: string; id: string }>(async ({ ctx, params, url }) => {
  const budget = await getBudget(ctx, params.org, params.id);
  const alerts = await listBudgetAlerts(ctx, params.org, { budgetId: budget.id, limit: 500 });
  return apiJson(pageOf(alerts.map(budgetAlertView), url.searchParams, (a) => String(a.id)));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");

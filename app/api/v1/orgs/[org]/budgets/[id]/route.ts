import { readJsonBody } from "@/lib/api/body";
import { etagOf, ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { type BudgetInput, budgetView, deleteBudget, getBudget, updateBudget } from "@/lib/budgets";

type P = { org: string; id: string };

/** GET: one budget, with its ETag (send it back as If-Match to update without losing someone's change). */
export const GET = apiHandler<P>(async ({ ctx, params }) => {
  const view = budgetView(await getBudget(ctx, params.org, params.id));
  return apiJson(view, { headers: { etag: etagOf(view) } });
});

/** PUT: replace the budget's settings (admins and owners); a stale If-Match is a 412 and nothing changes. */
export const PUT = apiHandler<P>(async ({ req, ctx, params }) => {
  const body = (await readJsonBody(req)) as BudgetInput;
  const precondition = ifMatchCheck(req, budgetView);
  const view = budgetView(await updateBudget(ctx, params.org, params.id, body, { precondition }));
  return apiJson(view, { headers: { etag: etagOf(view) } });
});

/** DELETE: remove the budget (admins and owners); If-Match is honoured the same way. */
export const DELETE = apiHandler<P>(async ({ req, ctx, params }) => {
  await deleteBudget(ctx, params.org, params.id, { precondition: ifMatchCheck(req, budgetView) });
  return new Response(null, { status: 204 });
});

export const { POST, PATCH } = notAllowed("GET", "PUT", "DELETE");

import { readJsonBody } from "@/lib/api/body";
import { etagOf } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { idempotentCreate } from "@/lib/api/idempotency";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { type BudgetInput, budgetStatusView, budgetView, createBudget, listBudgets } from "@/lib/budgets";

/** GET: the organization's budgets with this month's standing, by name (any role). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const all = await listBudgets(ctx, params.org);
  return apiJson(pageOf(all.map(budgetStatusView), url.searchParams, (b) => b.id));
});

/** POST: a monthly budget (admins and owners); `Idempotency-Key` makes a retry safe. */
export const POST = apiHandler<{ org: string }>(async ({ req, ctx, params, url }) => {
  const body = await readJsonBody(req);
  const res = await idempotentCreate(req, ctx, params.org, "budgets", body, async (c) => {
    const view = budgetView(await createBudget(c, params.org, body as BudgetInput));
    return { body: view, location: `${url.pathname}/${view.id}` };
  });
  res.headers.set("etag", etagOf(await res.clone().json()));
  return res;
});

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");

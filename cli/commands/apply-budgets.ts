import { randomUUID } from "node:crypto";
import { type Api, everyPage, ok } from "../client";
import type { BudgetDoc } from "../spec";
import { canonical, type PlanItem } from "./plan";

type Budget = Awaited<ReturnType<typeof budgetsOf>>[number];

export const budgetsOf = (api: Api, org: string) =>
  everyPage((cursor) =>
    api.GET("/orgs/{org}/budgets", { params: { path: { org }, query: { limit: 100, cursor } } }),
  );

/** Project slugs and ids → ids, so a file may name a project either way (a budget stores the id). */
export async function projectIds(api: Api, org: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const projects = await everyPage((cursor) =>
    api.GET("/orgs/{org}/projects", { params: { path: { org }, query: { limit: 100, cursor } } }),
  );
  for (const p of projects) ids.set(p.slug, p.id).set(p.id, p.id);
  return ids;
}

function diffBudget(doc: BudgetDoc, b: Budget, projects: Map<string, string>) {
  const sorted = (t: Array<{ kind: string; pct: number }>) =>
    [...t].sort((x, y) => x.kind.localeCompare(y.kind) || x.pct - y.pct);
  const fields: Array<[string, unknown, unknown]> = [
    ["project", doc.project ? (projects.get(doc.project) ?? doc.project) : null, b.projectId],
    ["amountUsd", doc.amountUsd, b.amountUsd],
    // Left out, the thresholds are the organization's defaults: only a value is compared.
    ["thresholds", doc.thresholds ? sorted(doc.thresholds) : undefined, sorted(b.thresholds)],
    [
      "recipientEmails",
      (doc.recipientEmails ?? []).map((e) => e.toLowerCase()).sort(),
      [...b.recipientEmails].sort(),
    ],
    ["recipientUserIds", [...(doc.recipientUserIds ?? [])].sort(), [...b.recipientUserIds].sort()],
    ["actionAt100", doc.actionAt100 ?? "notify", b.actionAt100],
    ["graceMinutes", doc.graceMinutes ?? 60, b.graceMinutes],
  ];
  return fields
    .filter(([, want, have]) => want !== undefined && canonical(want) !== canonical(have))
    .map(([field, to, from]) => ({ field, from, to }));
}

/** Budgets are matched by name; every field can change in place (PUT with the ETag read just before). */
export async function planBudgets(api: Api, org: string, docs: BudgetDoc[]): Promise<PlanItem[]> {
  if (docs.length === 0) return [];
  const [budgets, projects] = await Promise.all([budgetsOf(api, org), projectIds(api, org)]);
  return docs.map((doc) => {
    const b = budgets.find((x) => x.name === doc.name);
    const base = { kind: "budget" as const, name: doc.name, project: doc.project ?? null };
    if (!b) return { ...base, action: "create" as const, id: null, changes: [] };
    const changes = diffBudget(doc, b, projects);
    return {
      ...base,
      action: changes.length ? ("update" as const) : ("unchanged" as const),
      id: b.id,
      changes,
    };
  });
}

const bodyOf = ({ kind: _kind, ...body }: BudgetDoc) => body;

export async function applyBudget(api: Api, org: string, item: PlanItem, doc: BudgetDoc): Promise<string> {
  if (item.action === "create" || !item.id) {
    const created = await ok(
      api.POST("/orgs/{org}/budgets", {
        params: { path: { org }, header: { "Idempotency-Key": randomUUID() } },
        body: bodyOf(doc),
      }),
    );
    return (created as { id: string }).id;
  }
  const id = item.id;
  const read = await api.GET("/orgs/{org}/budgets/{id}", { params: { path: { org, id } } });
  await ok(Promise.resolve(read));
  // If-Match: a change made in the console since this read is a 412 (exit 5), not silently overwritten.
  const etag = read.response.headers.get("etag") ?? undefined;
  await ok(
    api.PUT("/orgs/{org}/budgets/{id}", {
      params: { path: { org, id }, header: { "If-Match": etag } },
      body: bodyOf(doc),
    }),
  );
  return id;
}

export const deleteBudget = (api: Api, org: string, id: string) =>
  ok(api.DELETE("/orgs/{org}/budgets/{id}", { params: { path: { org, id } } }));

export async function findBudgets(api: Api, org: string, docs: BudgetDoc[]) {
  if (docs.length === 0) return [];
  const budgets = await budgetsOf(api, org);
  return docs.map((d) => budgets.find((b) => b.name === d.name) ?? null);
}

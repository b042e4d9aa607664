import { type Api, everyPage, ok } from "../client";
import type { PolicyDoc } from "../spec";
import { projectIds } from "./apply-budgets";
import { canonical, type PlanItem } from "./plan";

const policiesOf = (api: Api, org: string) =>
  everyPage((cursor) =>
    api.GET("/orgs/{org}/auto-shutdown/policies", {
      params: { path: { org }, query: { limit: 100, cursor } },
    }),
  );

const SCOPE = new Set(["kind", "project", "gpuModelId"]);
const policyName = (d: PolicyDoc) =>
  [d.project ? `project=${d.project}` : null, d.gpuModelId ? `gpu=${d.gpuModelId}` : null]
    .filter(Boolean)
    .join(",") || "organization";

/**
 * Auto-shutdown policies are identified by their scope (organization, project, GPU model, or both) and set in
 * place with PUT (an upsert per scope). Only the values the file gives are compared.
 */
export async function planPolicies(api: Api, org: string, docs: PolicyDoc[]): Promise<PlanItem[]> {
  if (docs.length === 0) return [];
  const [policies, projects] = await Promise.all([policiesOf(api, org), projectIds(api, org)]);
  return docs.map((doc) => {
    const projectId = doc.project ? (projects.get(doc.project) ?? doc.project) : null;
    const p = policies.find((x) => x.projectId === projectId && x.gpuModelId === (doc.gpuModelId ?? null));
    const base = { kind: "policy" as const, name: policyName(doc), project: doc.project ?? null };
    if (!p) return { ...base, action: "create" as const, id: null, changes: [] };
    const have = p as unknown as Record<string, unknown>;
    const changes = Object.entries(doc)
      .filter(([k, v]) => !SCOPE.has(k) && v !== undefined && canonical(v) !== canonical(have[k]))
      .map(([field, to]) => ({ field, from: have[field], to }));
    return {
      ...base,
      action: changes.length ? ("update" as const) : ("unchanged" as const),
      id: p.id,
      changes,
    };
  });
}

/**
 * Create, or set in place with the ETag read just before (a change made in the console since the plan is a
 * 412, exit 5, never overwritten).
 */
export async function applyPolicy(api: Api, org: string, doc: PolicyDoc, id: string | null): Promise<string> {
  const { kind: _kind, ...body } = doc;
  let ifMatch: string | undefined;
  if (id) {
    const read = await api.GET("/orgs/{org}/auto-shutdown/policies/{id}", { params: { path: { org, id } } });
    await ok(Promise.resolve(read));
    ifMatch = read.response.headers.get("etag") ?? undefined;
  }
  const saved = await ok(
    api.PUT("/orgs/{org}/auto-shutdown/policies", {
      params: { path: { org }, header: { "If-Match": ifMatch } },
      body,
    }),
  );
  return saved.id;
}

export const deletePolicy = (api: Api, org: string, id: string) =>
  ok(api.DELETE("/orgs/{org}/auto-shutdown/policies/{id}", { params: { path: { org, id } } }));

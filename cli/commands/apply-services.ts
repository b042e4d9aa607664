import { randomUUID } from "node:crypto";
import { type Api, everyPage, ok } from "../client";
import type { ServiceDoc } from "../spec";
import { canonical, type PlanItem } from "./plan";

/** What PATCH …/services/{id} changes in place; any other difference replaces the service. */
const SCALING = new Set([
  "minReplicas",
  "maxReplicas",
  "metric",
  "target",
  "scaleUpDelaySeconds",
  "scaleDownDelaySeconds",
  "scaleToZeroGraceSeconds",
]);
// Not compared: the identity, and env (the API never returns environment values, so they cannot be diffed).
const SKIP = new Set(["kind", "name", "project", "env"]);

/**
 * Services are identified by name. Only the values the file gives are compared (left out, the API's defaults
 * apply); scaling settings change in place (PATCH with If-Match), anything else is a replace (delete, create).
 */
export async function planServices(api: Api, org: string, docs: ServiceDoc[]): Promise<PlanItem[]> {
  if (docs.length === 0) return [];
  const listed = await everyPage((cursor) =>
    api.GET("/orgs/{org}/services", { params: { path: { org }, query: { limit: 100, cursor } } }),
  );
  return Promise.all(
    docs.map(async (doc) => {
      const base = { kind: "service" as const, name: doc.name, project: doc.project ?? null };
      const found = listed.find((s) => s.name === doc.name);
      if (!found) return { ...base, action: "create" as const, id: null, changes: [] };
      const have = (await ok(
        api.GET("/orgs/{org}/services/{id}", { params: { path: { org, id: found.id } } }),
      )) as unknown as Record<string, unknown>;
      const changes = Object.entries(doc)
        .filter(([k, v]) => !SKIP.has(k) && v !== undefined && canonical(v) !== canonical(have[k]))
        .map(([field, to]) => ({ field, from: have[field], to }));
      const action =
        changes.length === 0
          ? "unchanged"
          : changes.every((c) => SCALING.has(c.field))
            ? "update"
            : "replace";
      return { ...base, action: action as PlanItem["action"], id: found.id, changes };
    }),
  );
}

const createService = async (api: Api, org: string, doc: ServiceDoc) => {
  const { kind: _kind, ...body } = doc;
  const created = await ok(
    api.POST("/orgs/{org}/services", {
      params: { path: { org }, header: { "Idempotency-Key": randomUUID() } },
      body,
    }),
  );
  return created.id;
};

export const deleteService = (api: Api, org: string, id: string) =>
  ok(api.DELETE("/orgs/{org}/services/{id}", { params: { path: { org, id } } }));

/** Carry out one planned service: create, PATCH the scaling in place (If-Match read just before), or replace. */
export async function applyService(
  api: Api,
  org: string,
  p: PlanItem,
  doc: ServiceDoc,
): Promise<string | null> {
  if (p.action === "create") return createService(api, org, doc);
  if (!p.id || p.action === "unchanged") return p.id;
  if (p.action === "replace") {
    await deleteService(api, org, p.id);
    return createService(api, org, doc);
  }
  const read = await api.GET("/orgs/{org}/services/{id}", { params: { path: { org, id: p.id } } });
  await ok(Promise.resolve(read));
  const body = Object.fromEntries(p.changes.map((c) => [c.field, c.to]));
  await ok(
    api.PATCH("/orgs/{org}/services/{id}", {
      params: {
        path: { org, id: p.id },
        header: { "If-Match": read.response.headers.get("etag") ?? undefined },
      },
      body,
    }),
  );
  return p.id;
}

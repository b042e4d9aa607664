import "server-only";
import { and, asc, count, desc, eq, type SQL, sql } from "drizzle-orm";
import { requireOrgAccess, roleAtLeast } from "@/lib/access";
import { type Ctx, parseInput } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { instanceEvents, instances, nodes, projects } from "@/lib/db/schema";
import { loadOrgInstance } from "./load";
import { type ListInstancesFilter, listInstancesSchema } from "./schemas";
import type { Instance, InstanceEvent } from "./types";

export type InstanceDetail = {
  instance: Instance;
  project: { id: string; slug: string; name: string };
  nodeName: string | null;
  /** Oldest first: the status timeline. */
  events: InstanceEvent[];
};

/**
 * One instance with its events; another organization's instance is NotFound. Viewers may read, but never its
 * connection details: the notebook URL carries its token, and the endpoint and ssh line let the holder run
 * code on the organization's GPUs, which is a member's right (decided here so no page or route can leak it).
 */
export async function getInstance(ctx: Ctx, orgSlug: string, instanceId: string): Promise<InstanceDetail> {
  const { org, role } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const exec = readDb(ctx);
  const loaded = await loadOrgInstance(exec, org.id, instanceId);
  const instance = roleAtLeast(role, "member") ? loaded : { ...loaded, connection: null };
  const [project] = await exec
    .select({ id: projects.id, slug: projects.slug, name: projects.name })
    .from(projects)
    .where(eq(projects.id, instance.projectId));
  const [node] = instance.nodeId
    ? await exec.select({ name: nodes.name }).from(nodes).where(eq(nodes.id, instance.nodeId))
    : [];
  const events = await exec
    .select()
    .from(instanceEvents)
    .where(and(eq(instanceEvents.instanceId, instance.id), eq(instanceEvents.orgId, org.id)))
    .orderBy(asc(instanceEvents.at), asc(instanceEvents.id));
  return {
    instance,
    project: project ?? { id: instance.projectId, slug: "", name: "" },
    nodeName: node?.name ?? null,
    events,
  };
}

export type InstanceListItem = Instance & { projectSlug: string; projectName: string };
export type InstanceList = { items: InstanceListItem[]; total: number; page: number; pageSize: number };

/** The organization's instances, newest first, filtered by project (slug or id), state and region. */
export async function listInstances(
  ctx: Ctx,
  orgSlug: string,
  filter: ListInstancesFilter = {},
): Promise<InstanceList> {
  const f = parseInput(listInstancesSchema, filter);
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const exec = readDb(ctx);
  const where: SQL[] = [eq(instances.orgId, org.id)];
  if (f.project) {
    where.push(
      /^[0-9a-f-]{36}$/i.test(f.project) ? eq(projects.id, f.project) : eq(projects.slug, f.project),
    );
  }
  if (f.state) where.push(eq(instances.state, f.state));
  if (f.region) where.push(eq(instances.regionCode, f.region));
  if (f.after) {
    // Compared with the row itself, so the key keeps PostgreSQL's full timestamp precision.
    where.push(
      sql`(${instances.createdAt}, ${instances.id}) < (select i.created_at, i.id from instances i where i.id = ${f.after} and i.org_id = ${org.id})`,
    );
  }
  const cond = and(...where);
  const [total] = await exec
    .select({ n: count() })
    .from(instances)
    .innerJoin(projects, eq(projects.id, instances.projectId))
    .where(cond);
  const rows = await exec
    .select({ instance: instances, projectSlug: projects.slug, projectName: projects.name })
    .from(instances)
    .innerJoin(projects, eq(projects.id, instances.projectId))
    .where(cond)
    .orderBy(desc(instances.createdAt), desc(instances.id))
    .limit(f.pageSize)
    .offset((f.page - 1) * f.pageSize);
  return {
    items: rows.map((r) => ({ ...r.instance, projectSlug: r.projectSlug, projectName: r.projectName })),
    total: total?.n ?? 0,
    page: f.page,
    pageSize: f.pageSize,
  };
}

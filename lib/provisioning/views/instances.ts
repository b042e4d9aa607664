import "server-only";
import { type OrgRole, requireOrgAccess, roleAtLeast } from "@/lib/access";
import { listGpuModels } from "@/lib/catalog";
import { type Ctx, nowOf } from "@/lib/core";
import { getInstance, listInstances } from "../queries";
import { type CostEstimate, estimateInstanceCosts } from "../queries-ui";
import { type QueueInsight, queueInsight } from "../queue";
import type { ListInstancesFilter } from "../schemas";
import { canTransition, type InstanceState } from "../states";
import type { Instance } from "../types";
import type {
  InstanceAction,
  InstanceDetailView,
  InstanceListView,
  InstanceRowView,
  QueueView,
} from "./schemas";

/**
 * The instance views' JSON (schemas.ts), shared by the pages' first render, the route handlers React Query
 * polls and /api/v1, so all three always show the same thing. Reads only through lib; nothing here decides a rule (legal actions come from the
 * lifecycle's transition table, permissions from the role).
 */
type GpuNames = Map<string, { name: string; migProfiles: Array<{ name: string; slices: number }> }>;

async function gpuNames(ctx: Ctx): Promise<GpuNames> {
  const models = await listGpuModels(ctx);
  return new Map(models.map((m) => [m.id, { name: m.name, migProfiles: m.migProfiles }]));
}

export function legalActions(state: InstanceState, role: OrgRole): InstanceAction[] {
  if (!roleAtLeast(role, "member")) return [];
  const actions: InstanceAction[] = [];
  if (canTransition(state, "stopping")) actions.push("stop");
  // requested → queued is the launch itself, not something a person starts.
  if (state !== "requested" && canTransition(state, "queued")) actions.push("start");
  if (canTransition(state, "cancelled")) actions.push("cancel");
  if (canTransition(state, "terminating")) actions.push("terminate");
  return actions;
}

function migProfileOf(inst: Instance, names: GpuNames): string | null {
  if (inst.slicesPerGpu >= 7) return null;
  const profiles = names.get(inst.gpuModelId)?.migProfiles ?? [];
  const byType = profiles.find((p) => inst.instanceTypeId.endsWith(`.mig-${p.name}`));
  return (byType ?? profiles.find((p) => p.slices === inst.slicesPerGpu))?.name ?? `${inst.slicesPerGpu}/7`;
}

function rowView(
  inst: Instance & { projectSlug: string; projectName: string },
  names: GpuNames,
  role: OrgRole,
  cost: CostEstimate | undefined,
): InstanceRowView {
  return {
    id: inst.id,
    name: inst.name,
    kind: inst.kind,
    state: inst.state,
    stateReason: inst.stateReason,
    borrowed: inst.borrowed,
    queueReason:
      inst.state === "queued" && inst.queueReason
        ? (inst.queueReason as InstanceRowView["queueReason"])
        : null,
    regionCode: inst.regionCode,
    instanceTypeId: inst.instanceTypeId,
    gpuModelName: names.get(inst.gpuModelId)?.name ?? inst.gpuModelId,
    gpuCount: inst.gpuCount,
    migProfile: migProfileOf(inst, names),
    pricingModel: inst.pricingModel,
    projectSlug: inst.projectSlug,
    projectName: inst.projectName,
    createdAt: inst.createdAt.toISOString(),
    actions: legalActions(inst.state, role),
    costUsd: cost?.usd ?? null,
  };
}

export async function loadInstanceList(
  ctx: Ctx,
  orgSlug: string,
  filter: ListInstancesFilter,
): Promise<InstanceListView> {
  const { role } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const [list, names] = await Promise.all([listInstances(ctx, orgSlug, filter), gpuNames(ctx)]);
  const costs = await estimateInstanceCosts(
    ctx,
    orgSlug,
    list.items.map((i) => i.id),
  );
  return {
    items: list.items.map((i) => rowView(i, names, role, costs.get(i.id))),
    total: list.total,
    page: list.page,
    pageSize: list.pageSize,
    now: nowOf(ctx).toISOString(),
  };
}

export async function loadInstanceDetail(
  ctx: Ctx,
  orgSlug: string,
  instanceId: string,
): Promise<InstanceDetailView> {
  const { role } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const [detail, names] = await Promise.all([getInstance(ctx, orgSlug, instanceId), gpuNames(ctx)]);
  const inst = detail.instance;
  const [costs, insight] = await Promise.all([
    estimateInstanceCosts(ctx, orgSlug, [inst.id]),
    inst.state === "queued" ? queueInsight(ctx, orgSlug, inst.id, inst) : null,
  ]);
  const cost = costs.get(inst.id);
  const project = { projectSlug: detail.project.slug, projectName: detail.project.name };
  return {
    ...rowView({ ...inst, ...project }, names, role, cost),
    imageId: inst.imageId,
    nodeName: detail.nodeName,
    diskGib: inst.diskGib,
    exposedPort: inst.exposedPort,
    // Members and up only (getInstance already withholds it from viewers; the view says so again).
    connection: inst.state === "running" && roleAtLeast(role, "member") ? inst.connection : null,
    startedAt: inst.startedAt?.toISOString() ?? null,
    events: detail.events.map((e) => ({
      id: e.id,
      from: e.fromState,
      to: e.toState,
      reason: e.reason,
      reasonCode: e.reasonCode,
      reasonParams: e.reasonParams,
      actorKind: e.actorKind,
      actorEmail: null,
      at: e.at.toISOString(),
    })),
    queue: queueView(insight, names),
    cost: cost && cost.hours > 0 ? cost : null,
    spec: {
      command: inst.command,
      args: inst.args,
      env: roleAtLeast(role, "member") ? inst.env : null,
      autoShutdown: inst.autoShutdown,
      maxRuntimeMinutes: inst.maxRuntimeMinutes,
      priority: inst.priority,
      autoRecover: inst.autoRecover,
    },
    now: nowOf(ctx).toISOString(),
  };
}

function queueView(insight: QueueInsight | null, names: GpuNames): QueueView | null {
  if (!insight || insight.position === null || !insight.estimate) return null;
  return {
    position: insight.position,
    etaSeconds: insight.estimate.etaSeconds,
    method: insight.estimate.method,
    alternatives: insight.alternatives.map((a) => ({
      kind: a.kind,
      regionCode: a.regionCode,
      instanceTypeId: a.instanceTypeId,
      gpuModelName: a.gpuModelName,
      gpuCount: a.gpuCount,
      // Instance type ids of MIG slices end with their profile ("h100.mig-1g.10gb").
      migProfile:
        names.get(a.gpuModelId)?.migProfiles.find((p) => a.instanceTypeId.endsWith(`.mig-${p.name}`))?.name ??
        null,
      gpuMemoryGib: a.gpuMemoryGib,
      pricingModel: a.pricingModel,
      usdPerHour: Number(a.usdPerHour),
    })),
  };
}

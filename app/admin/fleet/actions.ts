"use server";

import { adminFormAction } from "@/app/_kit/admin-action";
import { say } from "@/app/_kit/org-action";
import { activateNode, addNode, drainNode, failNode } from "@/lib/provisioning";

const area = "Fleet.errors";
const nodePage = (input: Record<string, unknown>) => `/admin/fleet/nodes/${String(input.nodeId ?? "")}`;

export const addNodeAction = adminFormAction<{ id: string }>(
  {
    label: "addNode",
    area,
    revalidate: "/admin/fleet/nodes",
    fields: ["name", "regionCode", "gpuModelId", "gpuCount", "vcpus", "ramGib", "migGpus"],
  },
  async (ctx, input) => {
    const node = await addNode(ctx, input);
    return { data: { id: node.id }, message: await say("Fleet", "added", { name: node.name }) };
  },
);

const verb = (label: string, run: typeof drainNode) =>
  adminFormAction<unknown>(
    { label, area, revalidate: nodePage, fields: ["nodeId", "reason"] },
    async (ctx, input) => {
      await run(ctx, String(input.nodeId ?? ""), { reason: input.reason });
      return undefined;
    },
  );

export const drainNodeAction = verb("drainNode", drainNode);
export const failNodeAction = verb("failNode", failNode);
export const activateNodeAction = verb("activateNode", activateNode);

"use server";

import { adminFormAction } from "@/app/_kit/admin-action";
import { say } from "@/app/_kit/org-action";
import type { ActionResult } from "@/lib/core";
import { activateNode, addNode, drainNode, failNode, setNodeMigLayout } from "@/lib/provisioning";

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

/** The MIG layout form: one checkbox `migGpu` per GPU, every checked index in MIG mode. */
export async function setMigLayoutAction(prev: ActionResult<unknown> | null, fd: FormData) {
  const migGpus = fd.getAll("migGpu").map(String);
  return adminFormAction<unknown>(
    { label: "setMigLayout", area, revalidate: nodePage, fields: ["nodeId"] },
    async (ctx, input) => {
      await setNodeMigLayout(ctx, String(input.nodeId ?? ""), { migGpus });
      return { message: await say("Fleet", "migLayoutSaved") };
    },
  )(prev, fd);
}

"use server";

import { z } from "zod";
import { formError } from "@/app/_kit/form-error";
import { orgAction } from "@/app/_kit/org-action";
import { parseInput } from "@/lib/core";
import { type BulkStopResult, cancel, INSTANCE_ACTIONS, start, stop, terminate } from "@/lib/provisioning";

const VERBS = { stop, start, terminate, cancel } as const;
const actionSchema = z.object({ action: z.enum(INSTANCE_ACTIONS), id: z.string().min(1) });
const opts = (label: string) => ({
  label,
  area: "Instances.errors",
  revalidate: { path: "/instances", type: "layout" as const },
});

/** One lifecycle action on one instance; the library checks the role, the tenant and the transition. */
export const instanceAction = orgAction(
  opts("instance.action"),
  async (ctx, orgSlug, input: { action: string; id: string }) => {
    const { action, id } = parseInput(actionSchema, input);
    await VERBS[action](ctx, orgSlug, id);
  },
);

const bulkSchema = z.object({
  ids: z.array(z.string().min(1)).min(1, "Select at least one instance").max(200),
});

/**
 * Stop each selected instance on its own: one that cannot be stopped (already stopped, another tenant's id)
 * is reported by id with the adapter's message, and does not undo or block the others.
 */
export const stopInstancesAction = orgAction<[{ ids: string[] }], BulkStopResult>(
  opts("instance.bulkStop"),
  async (ctx, orgSlug, input) => {
    const result: BulkStopResult = { stopped: [], failed: [] };
    for (const id of new Set(parseInput(bulkSchema, input).ids)) {
      try {
        await stop(ctx, orgSlug, id);
        result.stopped.push(id);
      } catch (err) {
        const mapped = await formError(err, "instance.bulkStop", "Instances.errors");
        result.failed.push({ id, message: mapped.ok ? "" : mapped.message });
      }
    }
    // The request itself succeeded; per-instance outcomes are in the data.
    return { data: result };
  },
);

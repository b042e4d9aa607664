"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireUserCtx } from "@/lib/auth/session";
import { type ActionResult, parseInput } from "@/lib/core";
import type { BulkStopResult } from "@/lib/provisioning";
import { cancel, start, stop, terminate } from "@/lib/provisioning";
import { instanceActionError } from "./action-error";

const VERBS = { stop, start, terminate, cancel } as const;
const actionSchema = z.object({
  action: z.enum(["stop", "start", "terminate", "cancel"]),
  id: z.string().min(1),
});

/** One lifecycle action on one instance; the library checks the role, the tenant and the transition. */
export async function instanceAction(
  orgSlug: string,
  input: { action: string; id: string },
): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    const { action, id } = parseInput(actionSchema, input);
    await VERBS[action](ctx, orgSlug, id);
  } catch (err) {
    return instanceActionError(err, `instance.${input.action}`);
  }
  revalidatePath(`/${orgSlug}/instances`, "layout");
  return { ok: true };
}

const bulkSchema = z.object({
  ids: z.array(z.string().min(1)).min(1, "Select at least one instance").max(200),
});

/**
 * Stop each selected instance on its own: one that cannot be stopped (already stopped, another tenant's id)
 * is reported by id and does not undo or block the others.
 */
export async function stopInstancesAction(
  orgSlug: string,
  input: { ids: string[] },
): Promise<ActionResult<BulkStopResult>> {
  const ctx = await requireUserCtx();
  let ids: string[];
  try {
    ids = parseInput(bulkSchema, input).ids;
  } catch (err) {
    return instanceActionError(err, "instance.bulkStop");
  }
  const result: BulkStopResult = { stopped: [], failed: [] };
  for (const id of new Set(ids)) {
    try {
      await stop(ctx, orgSlug, id);
      result.stopped.push(id);
    } catch (err) {
      const mapped = await instanceActionError(err, "instance.bulkStop");
      result.failed.push({ id, message: mapped.ok ? "" : mapped.message });
    }
  }
  revalidatePath(`/${orgSlug}/instances`, "layout");
  // The request itself succeeded; per-instance outcomes are in the data.
  return { ok: true, data: result };
}

"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { costActionError } from "@/components/costs/action-error";
import { requireUserCtx } from "@/lib/auth/session";
import { deleteAutoShutdownPolicy, type PolicyInput, setAutoShutdownPolicy } from "@/lib/autoshutdown";
import type { ActionResult } from "@/lib/core";

const NUMBERS = [
  "defaultIdlePct",
  "defaultIdleMinutes",
  "idleMinutesMax",
  "idlePctMin",
  "defaultMaxRuntimeMinutes",
  "maxRuntimeMinutesMax",
  "snoozeMinutesMax",
  "maxSnoozes",
  "warningMinutes",
] as const;

/** The policy form as the library's input: numbers as typed (its schema checks them), checkboxes as booleans. */
function policyInputFromForm(fd: FormData): PolicyInput {
  const input: Record<string, unknown> = {
    project: String(fd.get("project") ?? ""),
    gpuModelId: String(fd.get("gpuModelId") ?? ""),
    // An unchecked box is absent from the form: that is an explicit "no", not "use the default".
    idleRequired: fd.has("idleRequired"),
    allowSnooze: fd.has("allowSnooze"),
  };
  for (const k of NUMBERS) input[k] = String(fd.get(k) ?? "").trim();
  return input as PolicyInput;
}

export async function savePolicyAction(
  orgSlug: string,
  _prev: ActionResult | null,
  fd: FormData,
): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    await setAutoShutdownPolicy(ctx, orgSlug, policyInputFromForm(fd));
  } catch (err) {
    return costActionError(err, "autoshutdown.policy");
  }
  revalidatePath(`/${orgSlug}/settings/auto-shutdown`);
  return { ok: true, message: (await getTranslations("Costs.autoShutdown"))("saved") };
}

export async function deletePolicyAction(
  orgSlug: string,
  policyId: string,
  _prev: ActionResult<unknown> | null,
  _fd: FormData,
): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    await deleteAutoShutdownPolicy(ctx, orgSlug, policyId);
  } catch (err) {
    return costActionError(err, "autoshutdown.policyDelete");
  }
  revalidatePath(`/${orgSlug}/settings/auto-shutdown`);
  return { ok: true };
}

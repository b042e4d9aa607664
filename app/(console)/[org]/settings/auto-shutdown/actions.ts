"use server";

import { orgAction, say } from "@/app/_kit/org-action";
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

const opts = (label: string) => ({ label, area: "Costs.errors", revalidate: "/settings/auto-shutdown" });

export const savePolicyAction = orgAction(
  opts("autoshutdown.policy"),
  async (ctx, orgSlug, _prev: ActionResult | null, fd: FormData) => {
    await setAutoShutdownPolicy(ctx, orgSlug, policyInputFromForm(fd));
    return { message: await say("Costs.autoShutdown", "saved") };
  },
);

export const deletePolicyAction = orgAction(
  opts("autoshutdown.policyDelete"),
  async (ctx, orgSlug, policyId: string, _prev: ActionResult<unknown> | null, _fd: FormData) => {
    await deleteAutoShutdownPolicy(ctx, orgSlug, policyId);
  },
);

import "server-only";
import { type OrgRole, roleAtLeast } from "@/lib/access";
import { type FieldErrors, ValidationError } from "@/lib/core";
import type { Executor } from "@/lib/db/client";
import type { AutoShutdown } from "@/lib/db/schema";
import { type EffectivePolicy, NOTEBOOK_IDLE_MINUTES, resolvePolicy } from "./policies";

/** Settings as a launch or an edit gives them: a rule left out takes the default, null switches it off. */
export type AutoShutdownSettings = AutoShutdown | null | undefined;

/** Fill the rules a launch left out from the policy (notebooks idle-stop after 30 min by default). */
export function withDefaults(
  settings: AutoShutdownSettings,
  policy: EffectivePolicy,
  kind: "notebook" | "container",
): AutoShutdown {
  const s = settings ?? {};
  const defaultIdleMinutes =
    policy.defaultIdleMinutes ?? (kind === "notebook" ? NOTEBOOK_IDLE_MINUTES : null);
  const idle =
    s.idle !== undefined
      ? s.idle
      : defaultIdleMinutes === null
        ? null
        : { utilizationBelowPct: policy.defaultIdlePct, minutes: defaultIdleMinutes };
  return {
    idle,
    maxRuntimeMinutes:
      s.maxRuntimeMinutes !== undefined ? s.maxRuntimeMinutes : policy.defaultMaxRuntimeMinutes,
    schedule: s.schedule ?? null,
  };
}

/** The limits a member's settings break (admins and owners may go beyond them). */
export function policyViolations(settings: AutoShutdown, policy: EffectivePolicy): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    errors[`autoShutdown.${field}`] = [...(errors[`autoShutdown.${field}`] ?? []), message];
  };
  const idle = settings.idle;
  if (!idle && policy.idleRequired) {
    add("idle", "Your organization requires idle shutdown; only an admin can switch it off");
  }
  if (idle && policy.idleMinutesMax !== null && idle.minutes > policy.idleMinutesMax) {
    add("idle.minutes", `Your organization allows at most ${policy.idleMinutesMax} idle minutes`);
  }
  if (idle && policy.idlePctMin !== null && idle.utilizationBelowPct < policy.idlePctMin) {
    add(
      "idle.utilizationBelowPct",
      `Your organization requires an idle threshold of at least ${policy.idlePctMin} %`,
    );
  }
  if (policy.maxRuntimeMinutesMax !== null) {
    if (settings.maxRuntimeMinutes == null) {
      add(
        "maxRuntimeMinutes",
        `Your organization requires a max runtime of at most ${policy.maxRuntimeMinutesMax} minutes`,
      );
    } else if (settings.maxRuntimeMinutes > policy.maxRuntimeMinutesMax) {
      add(
        "maxRuntimeMinutes",
        `Your organization allows at most ${policy.maxRuntimeMinutesMax} minutes of runtime`,
      );
    }
  }
  return errors;
}

/**
 * For launch (and settings edits): the auto-shutdown settings to store, with the applicable policy's
 * defaults filled in. Members and viewers may not exceed its limits (ValidationError with errors at
 * autoShutdown.* fields, the launch form's names); admins and owners may.
 */
export async function validateAutoShutdown(
  exec: Executor,
  orgId: string,
  projectId: string,
  gpuModelId: string,
  settings: AutoShutdownSettings,
  role: OrgRole,
  kind: "notebook" | "container" = "notebook",
): Promise<AutoShutdown> {
  const policy = await resolvePolicy(exec, orgId, projectId, gpuModelId);
  const effective = withDefaults(settings, policy, kind);
  if (!roleAtLeast(role, "admin")) {
    const errors = policyViolations(effective, policy);
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  }
  return effective;
}

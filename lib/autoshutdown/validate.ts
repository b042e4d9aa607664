import "server-only";
import { type OrgRole, roleAtLeast } from "@/lib/access";
import { type FieldMessage, fieldMessageOf, fieldMessageWith, ValidationError } from "@/lib/core";
import type { Executor } from "@/lib/db/client";
import type { AutoShutdown } from "@/lib/db/schema";
import { AUTOSHUTDOWN_FIELD_MESSAGES as M } from "./field-messages";
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

/** The limits a member's settings break (admins and owners may go beyond them), as declared messages. */
export function policyViolations(
  settings: AutoShutdown,
  policy: EffectivePolicy,
): Record<string, FieldMessage[]> {
  const errors: Record<string, FieldMessage[]> = {};
  const add = (field: string, message: FieldMessage) => {
    errors[`autoShutdown.${field}`] = [...(errors[`autoShutdown.${field}`] ?? []), message];
  };
  const idle = settings.idle;
  if (!idle && policy.idleRequired) add("idle", fieldMessageOf(M.idleRequiredByPolicy));
  if (idle && policy.idleMinutesMax !== null && idle.minutes > policy.idleMinutesMax) {
    add("idle.minutes", fieldMessageWith(M.idleMinutesAbovePolicy, { max: policy.idleMinutesMax }));
  }
  if (idle && policy.idlePctMin !== null && idle.utilizationBelowPct < policy.idlePctMin) {
    add("idle.utilizationBelowPct", fieldMessageWith(M.idlePctBelowPolicy, { min: policy.idlePctMin }));
  }
  if (policy.maxRuntimeMinutesMax !== null) {
    const max = { max: policy.maxRuntimeMinutesMax };
    if (settings.maxRuntimeMinutes == null) {
      add("maxRuntimeMinutes", fieldMessageWith(M.runtimeRequiredByPolicy, max));
    } else if (settings.maxRuntimeMinutes > policy.maxRuntimeMinutesMax) {
      add("maxRuntimeMinutes", fieldMessageWith(M.runtimeAbovePolicy, max));
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
  return checkAutoShutdown(await resolvePolicy(exec, orgId, projectId, gpuModelId), settings, role, kind);
}

/** validateAutoShutdown once the policy is known (launch resolves it in the statement that reads the rest). */
export function checkAutoShutdown(
  policy: EffectivePolicy,
  settings: AutoShutdownSettings,
  role: OrgRole,
  kind: "notebook" | "container",
): AutoShutdown {
  const effective = withDefaults(settings, policy, kind);
  if (!roleAtLeast(role, "admin")) {
    const violations = policyViolations(effective, policy);
    if (Object.keys(violations).length > 0) {
      const texts = Object.fromEntries(Object.entries(violations).map(([f, l]) => [f, l.map((m) => m.text)]));
      throw new ValidationError(texts, undefined, violations);
    }
  }
  return effective;
}

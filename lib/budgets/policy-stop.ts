import "server-only";
import type { Actor } from "@/lib/core";
import type { Tx } from "@/lib/db/client";
import { type Instance, stopForPolicy } from "@/lib/provisioning";

/** Automatic stops are made by the "policy" actor: instance events show actor_kind "policy". */
export const POLICY_ACTOR: Actor = { kind: "system", name: "policy" };

/**
 * Stop a running instance for a cost rule (budget exceeded, auto-shutdown) through the provisioning library's
 * one stop path, as the policy actor, with the rule's reason on the timeline and in the audit row. Returns
 * null when the instance is no longer running.
 */
export async function policyStop(
  tx: Tx,
  now: Date,
  input: { orgId: string; instanceId: string; reason: string; audit: Record<string, unknown> },
): Promise<Instance | null> {
  return stopForPolicy(tx, { actor: POLICY_ACTOR, now: () => now, tx }, input);
}

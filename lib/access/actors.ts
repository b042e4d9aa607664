import type { Actor } from "@/lib/core";

/**
 * Automatic stops and alerts are made by the "policy" actor: instance events show actor_kind "policy" and
 * audit rows name it. Here, below budgets, auto-shutdown and provisioning, so all three name the same actor.
 */
export const POLICY_ACTOR: Actor = { kind: "system", name: "policy" };

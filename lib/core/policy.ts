import type { Tx } from "@/lib/db/client";

/**
 * Stops one running instance for a cost rule (budget exceeded, auto-shutdown) in the caller's transaction,
 * with the rule's reason on the timeline and in the audit row; null when it was no longer running.
 * Budgets and auto-shutdown sit below provisioning in the domain graph, so they receive this function (the
 * worker passes lib/provisioning's policyStop) instead of importing the domain that owns stopping.
 */
export type PolicyStop = (
  tx: Tx,
  now: Date,
  input: { orgId: string; instanceId: string; reason: string; audit: Record<string, unknown> },
) => Promise<{ name: string } | null>;

import "server-only";
import { POLICY_ACTOR } from "@/lib/access";
import type { PolicyStop } from "@/lib/core";
import { stopForPolicy } from "./stop";

/**
 * Stop a running instance for a cost rule through the one stop path, as the policy actor. The worker hands
 * this to evaluateBudgets and evaluateAutoShutdown (see PolicyStop for why they do not import it).
 */
export const policyStop = ((tx, now, input) =>
  stopForPolicy(tx, { actor: POLICY_ACTOR, now: () => now, tx }, input)) satisfies PolicyStop;

/**
 * One background pass in a child process, for the crash test (test/crash/crash.test.ts): run with
 * FORJA_TEST_HOOKS=1 and FORJA_PAUSE_AT=<checkpoint>, it prints FORJA_PAUSED <name> there and waits to be
 * SIGKILLed. Arguments: the pass name and a JSON object of its options (`now` as an ISO string).
 */
import { evaluateAutoShutdown } from "@/lib/autoshutdown";
import { evaluateBudgets } from "@/lib/budgets";
import { systemCtx } from "@/lib/core";
import { closeDb } from "@/lib/db/client";
import { meterUsage } from "@/lib/metering";
import { deliverOutbox } from "@/lib/notify";
import { placeQueuedInstances, policyStop, reconcileInstances } from "@/lib/provisioning";

const [pass, raw = "{}"] = process.argv.slice(2);
const args = JSON.parse(raw) as { now: string; orgIds?: string[]; regionCode?: string };
const now = new Date(args.now);

if (pass === "metering") {
  await meterUsage(systemCtx("metering"), { now, orgIds: args.orgIds });
} else if (pass === "scheduler") {
  await placeQueuedInstances(systemCtx("scheduler", { now: () => now }), {
    regionCode: args.regionCode,
    now,
  });
} else if (pass === "autoshutdown") {
  await evaluateAutoShutdown(systemCtx("policy"), { now, orgIds: args.orgIds, stop: policyStop });
} else if (pass === "outbox") {
  await deliverOutbox({ now });
} else if (pass === "budgets") {
  await evaluateBudgets(systemCtx("budgets"), { now, orgIds: args.orgIds, stop: policyStop });
} else if (pass === "reconcile") {
  await reconcileInstances(systemCtx("provider", { now: () => now }), { regionCode: args.regionCode, now });
} else {
  throw new Error(`unknown pass ${pass}`);
}
process.stdout.write("FORJA_PASS_DONE\n");
await closeDb();

/**
 * For e2e/costs.spec.ts: real spend in the current month, made through the libraries with an injected clock
 * (launch → placed → running some hours ago, then the metering pass the worker runs). Usage:
 *   node --conditions=react-server --import tsx e2e/support/costs-seed.ts <email> <org> <instanceType> <region> <hours>
 * Needs DATABASE_URL. Prints {"instanceId": …, "actualUsd": …} on the last line.
 */
import { findUserByEmail } from "@/lib/auth";
import { systemCtx, type UserActor } from "@/lib/core";
import { closeDb, getDb } from "@/lib/db/client";
import { forecastMonthEnd, meterUsage } from "@/lib/metering";
import {
  getInstance,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  seedImages,
} from "@/lib/provisioning";

const [email, org, instanceType, region, hoursArg] = process.argv.slice(2);
if (!email || !org || !instanceType || !region)
  throw new Error("usage: costs-seed <email> <org> <type> <region> <hours>");
const MIN = 60_000;
const db = getDb();
await db.transaction((tx) => seedImages(tx));
const user = await findUserByEmail(db, email);
if (!user) throw new Error(`${email} missing: run the e2e seed first`);
const actor: UserActor = { kind: "user", userId: user.id, email: user.email, isOperator: false };

const now = Date.now();
const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
// Never before this month: the spend must count against this month's budget.
const t0 = Math.max(monthStart + MIN, now - Number(hoursArg ?? 3) * 3_600_000);

// The simulated provider fails a few provisioning attempts (seeded by time): try again a little later.
let instanceId: string | null = null;
for (let attempt = 0; attempt < 5 && !instanceId; attempt++) {
  const start = new Date(t0 + attempt * 1000);
  const { instance } = await launch({ actor, now: () => start }, org, {
    kind: "container",
    name: `costs-e2e-${Date.now().toString(36)}`,
    project: "research",
    region,
    instanceType,
    pricingModel: "on_demand",
    image: "pytorch-2.5-cuda12.4",
    workload: "training",
  });
  const placedAt = new Date(start.getTime() + MIN);
  await placeQueuedInstances(systemCtx("scheduler"), { regionCode: region, now: placedAt });
  await reconcileInstances(systemCtx("provider"), { now: new Date(placedAt.getTime() + 10 * MIN) });
  const detail = await getInstance({ actor }, org, instance.id);
  if (detail.instance.state === "running") instanceId = instance.id;
}
if (!instanceId) throw new Error("could not bring an instance to running");
await meterUsage(systemCtx("metering"), { now: new Date(now) });
const f = await forecastMonthEnd({ actor }, org);
console.log(JSON.stringify({ instanceId, actualUsd: f.actualUsd, forecastUsd: f.forecastUsd }));
await closeDb();

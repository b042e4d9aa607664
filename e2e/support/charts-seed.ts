/**
 * For e2e/charts.spec.ts: a running 2-GPU instance in Acme with GPU samples, driven through the real library
 * with an injected clock (launch → queued for 5 minutes → placed → running), then the metrics ingest the worker
 * runs. Prints {"instanceId": …} on the last line. Needs DATABASE_URL (the e2e state file's databaseUrl).
 */
import { findUserByEmail } from "@/lib/auth";
import { systemCtx, type UserActor } from "@/lib/core";
import { closeDb, getDb } from "@/lib/db/client";
import {
  getInstance,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  seedImages,
} from "@/lib/provisioning";
import { ingestMetrics } from "@/lib/telemetry";
import { USERS } from "./env";

const MIN = 60_000;
const db = getDb();
await db.transaction((tx) => seedImages(tx));
const user = await findUserByEmail(db, USERS.owner.email);
if (!user) throw new Error("e2e owner missing: run the e2e seed first");
const actor: UserActor = { kind: "user", userId: user.id, email: user.email, isOperator: false };

// The simulated provider fails ~3 % of provisioning attempts (seeded by time): try again a little later.
let instanceId: string | null = null;
for (let attempt = 0; attempt < 5 && !instanceId; attempt++) {
  const t0 = new Date(Date.now() - (40 + attempt) * MIN);
  const { instance } = await launch({ actor, now: () => t0 }, "acme-ai", {
    kind: "container",
    name: `charts-e2e-${Date.now().toString(36)}`,
    project: "research",
    region: "eu-es-mad1",
    instanceType: "l4.2x",
    pricingModel: "on_demand",
    image: "pytorch-2.5-cuda12.4",
    workload: "training",
  });
  const placedAt = new Date(t0.getTime() + 5 * MIN);
  await placeQueuedInstances(systemCtx("scheduler"), { regionCode: "eu-es-mad1", now: placedAt });
  await reconcileInstances(systemCtx("provider"), { now: new Date(placedAt.getTime() + 10 * MIN) });
  const detail = await getInstance({ actor }, "acme-ai", instance.id);
  if (detail.instance.state === "running") instanceId = instance.id;
}
if (!instanceId) throw new Error("could not bring a charts instance to running");
await ingestMetrics(systemCtx("telemetry"), { now: new Date() });
console.log(JSON.stringify({ instanceId }));
await closeDb();

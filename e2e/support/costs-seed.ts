/**
 * For e2e/costs.spec.ts, through the libraries with an injected clock (nothing here writes SQL):
 *   spend <org> <instanceType> <region> <hours> [project]
 *     an on-demand container running for the last <hours> of this month (launch → placed → running), then
 *     the metering pass the worker runs, so the budget sees real spend; then it is terminated.
 *   idle-notebook <org> <project>
 *     a notebook with idle shutdown (5 min under 5 % GPU) running for ~10 minutes whose simulated GPUs have
 *     been idle and stay idle for the next minutes (the provider is deterministic per seed: other seeds are
 *     terminated and tried again), with its samples ingested.
 * Acts as the e2e owner (COSTS_SEED_EMAIL to run it on a dev database). Needs DATABASE_URL. Prints JSON on the last line.
 */
import { findUserByEmail } from "@/lib/auth";
import { systemCtx, type UserActor } from "@/lib/core";
import { closeDb, getDb } from "@/lib/db/client";
import { forecastMonthEnd, meterUsage } from "@/lib/metering";
import {
  getInstance,
  getProvider,
  type Instance,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  seedImages,
  terminate,
} from "@/lib/provisioning";
import { ingestMetrics } from "@/lib/telemetry";
import { USERS } from "./env";

const MIN = 60_000;
const [mode, org, ...rest] = process.argv.slice(2);
if (!mode || !org) throw new Error("usage: costs-seed spend|idle-notebook <org> …");
const db = getDb();
await db.transaction((tx) => seedImages(tx));
const user = await findUserByEmail(db, process.env.COSTS_SEED_EMAIL ?? USERS.owner.email);
if (!user) throw new Error("e2e owner missing: run the e2e seed first");
const actor: UserActor = { kind: "user", userId: user.id, email: user.email, isOperator: false };
const now = Date.now();

/** Launch at `at`, let the scheduler and the reconciler bring it up; null when the draw failed it. */
async function runFrom(at: Date, spec: Record<string, unknown>): Promise<Instance | null> {
  const { instance } = await launch({ actor, now: () => at }, org as string, spec);
  const placedAt = new Date(at.getTime() + MIN);
  await placeQueuedInstances(systemCtx("scheduler"), { regionCode: String(spec.region), now: placedAt });
  await reconcileInstances(systemCtx("provider"), { now: new Date(placedAt.getTime() + 10 * MIN) });
  const detail = await getInstance({ actor }, org as string, instance.id);
  if (detail.instance.state === "running") return detail.instance;
  if (detail.instance.state === "provisioning" || detail.instance.state === "queued") {
    await terminate({ actor }, org as string, instance.id).catch(() => {});
  }
  return null;
}

const unique = (p: string) => `${p}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e3)}`;

if (mode === "spend") {
  const [instanceType, region, hours, project = "research"] = rest;
  const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
  // Never before this month: the spend must count against this month's budget.
  const t0 = Math.max(monthStart + MIN, now - Number(hours ?? 3) * 3_600_000);
  let inst: Instance | null = null;
  // The simulated provider fails a few provisioning attempts (seeded by time): try again a little later.
  for (let attempt = 0; attempt < 5 && !inst; attempt++) {
    inst = await runFrom(new Date(t0 + attempt * 1000), {
      kind: "container",
      name: unique("costs-e2e"),
      project,
      region,
      instanceType,
      pricingModel: "on_demand",
      image: "pytorch-2.5-cuda12.4",
      workload: "training",
    });
  }
  if (!inst) throw new Error("could not bring an instance to running");
  await meterUsage(systemCtx("metering"), { now: new Date(now) });
  // Its spend stays in the month; its GPUs go back, so a retried journey is not refused for quota.
  await terminate({ actor }, org, inst.id);
  const f = await forecastMonthEnd({ actor }, org);
  console.log(JSON.stringify({ instanceId: inst.id, actualUsd: f.actualUsd, forecastUsd: f.forecastUsd }));
} else if (mode === "idle-notebook") {
  const [project] = rest;
  let chosen: Instance | null = null;
  for (let attempt = 0; attempt < 12 && !chosen; attempt++) {
    const inst = await runFrom(new Date(now - 12 * MIN), {
      kind: "notebook",
      name: unique("idle-nb"),
      project,
      region: "eu-es-mad1",
      instanceType: "l4.1x",
      image: "pytorch-2.5-cuda12.4",
      autoShutdown: { idle: { utilizationBelowPct: 5, minutes: 5 }, maxRuntimeMinutes: null, schedule: null },
    });
    if (!inst) continue;
    // Idle for the last 8 minutes and the next 6: the journey then sees warning → stop without a busy burst.
    const samples = getProvider().samples(
      { ...inst, gpuMemoryGib: 24, tdpWatts: 72 },
      new Date(now - 8 * MIN),
      new Date(now + 6 * MIN),
    );
    if (samples.length > 0 && samples.every((s) => s.utilizationPct < 5)) chosen = inst;
    else await terminate({ actor }, org, inst.id);
  }
  if (!chosen) throw new Error("no idle notebook after 12 tries");
  await ingestMetrics(systemCtx("telemetry"), { now: new Date(now) });
  console.log(JSON.stringify({ instanceId: chosen.id, name: chosen.name }));
} else {
  throw new Error(`unknown mode ${mode}`);
}
await closeDb();

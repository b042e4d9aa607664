import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAutoShutdownPolicies } from "@/lib/autoshutdown";
import { createBudget } from "@/lib/budgets";
import { systemCtx, type UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { instances, memberships, users } from "@/lib/db/schema";
import {
  createFixedProvider,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
  stop,
  terminate,
} from "@/lib/provisioning";
import {
  bigQuota,
  newFleet,
  newOrg,
  notebookSpec,
  type TestFleet,
} from "@/lib/provisioning/__tests__/fixtures";
import { createQuotaRequest, getQuotaPolicy, listOrgQuotas } from "@/lib/quotas";
import { seedServiceHistory } from "@/lib/services/__tests__/history";
import { createApiToken } from "@/lib/tenancy";
import { startApiServer } from "@/test/support/http-app";
import { forja } from "./support";

/**
 * The `forja` binary end to end: a real HTTP server (the app's route handlers) on the test PostgreSQL, the
 * CLI in a child process reaching it over the network like any user's terminal. Worker passes run in this
 * process while a command waits, standing in for the worker.
 */
const sys = systemCtx("cli-test");
let server: Awaited<ReturnType<typeof startApiServer>>;
let fleet: TestFleet;
let configDir: string;
let org: Awaited<ReturnType<typeof newOrg>>;
let token: string;
/** How many times the server read the provider's logs (a followed stream reads once per poll). */
let logReads = 0;

beforeAll(async () => {
  setProvider({
    ...createFixedProvider({ provisionMs: 0, stopMs: 60_000 }),
    logs: (inst, from) => {
      logReads++;
      return [
        {
          at: new Date(Math.max(from.getTime() + 1, (inst.startedAt ?? from).getTime())),
          stream: "stdout",
          text: "epoch 1/3 loss=0.42",
        },
      ];
    },
  });
  [server, fleet] = await Promise.all([startApiServer(), newFleet([{ gpus: 8 }])]);
  org = await newOrg("cli");
  await bigQuota(org.org.id, fleet.region);
  token = (await createApiToken(org.ctx, org.slug, { name: "cli" })).secret;
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-cli-"));
}, 120_000);
afterAll(async () => {
  await server?.close();
  setProvider(null);
  if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
});

const run = (args: string[], more: Parameters<typeof forja>[1] extends infer O ? Partial<O> : never = {}) =>
  forja(args, { configDir, ...more });
const workerPass = async () => {
  await placeQueuedInstances(sys, { regionCode: fleet.region });
  await reconcileInstances(sys, { regionCode: fleet.region });
};
const json = (out: string) =>
  JSON.parse(out) as Record<string, unknown> & { items?: Array<Record<string, unknown>> };

// Each test runs the binary 5–15 times (a node process with tsx each, ~1 s idle, several seconds on a loaded
// machine): the default 60 s timed them out on a loaded 2-core host with every step passing.
describe("forja against a running server", { timeout: 180_000 }, () => {
  it("login → offers → launch --wait → status → logs → stop", async () => {
    const login = await run(["login", "--url", server.url], { input: token });
    expect(login, login.stderr).toMatchObject({ code: 0 });
    expect(login.stdout).toContain(`in ${org.slug} (owner)`);
    const stored = path.join(configDir, "credentials.json");
    expect(fs.statSync(stored).mode & 0o777).toBe(0o600);

    const who = await run(["whoami", "--json"]);
    expect(json(who.stdout)).toMatchObject({ authentication: "token", organizations: [{ slug: org.slug }] });

    const offers = await run(["offers", "--gpu", "h100:1", "--region", "eu", "--available", "--json"]);
    expect(offers.code, offers.stderr).toBe(0);
    const items = json(offers.stdout).items ?? [];
    expect(items.every((o) => o.jurisdiction === "EU" && o.gpuCount === 1 && Number(o.available) > 0)).toBe(
      true,
    );
    // The shared test database has more EU regions than one page: this fleet's offer, by its region's code.
    const own = await run(["offers", "--gpu", "h100:1", "--region", fleet.region, "--available", "--json"]);
    expect(own.code, own.stderr).toBe(0);
    const ownItems = json(own.stdout).items ?? [];
    expect(ownItems.find((o) => o.regionCode === fleet.region)).toMatchObject({
      instanceTypeId: "h100.1x",
      gpuCount: 1,
    });

    const launched = await run(
      [
        "launch",
        "--name",
        "cli-nb",
        "--type",
        "h100.1x",
        "--region",
        fleet.region,
        "--image",
        "pytorch-2.5-cuda12.4",
        "--wait",
        "--timeout",
        "60",
        "--json",
      ],
      // The worker places it only once the CLI has shown its place in the queue: a pass racing the launch
      // could place it before the first poll, and then there is no queue to show (seen in CI).
      { during: async (child) => (/position \d+/.test(child.stderr()) ? workerPass() : undefined) },
    );
    expect(launched.code, launched.stderr).toBe(0);
    const inst = json(launched.stdout);
    expect(inst).toMatchObject({ name: "cli-nb", state: "running", regionCode: fleet.region });
    // Progress went to stderr, one line per change, starting from the queue.
    expect(launched.stderr).toMatch(/cli-nb: queued · position \d+ · ETA \S+ \(\w+\)/);
    expect(launched.stderr).toMatch(/cli-nb: running/);

    const status = await run(["status", String(inst.id)]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/State\s+running/);

    const logs = await run(["logs", String(inst.id)]);
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stdout).toContain("epoch 1/3 loss=0.42");

    const metrics = await run(["metrics", String(inst.id)]);
    expect(metrics.code, metrics.stderr).toBe(0);
    expect(metrics.stdout).toMatch(/^No utilization samples|GPU 0 /m);
    const stepped = await run(["metrics", String(inst.id), "--range", "6h", "--step", "10m", "--json"]);
    expect(stepped.code, stepped.stderr).toBe(0);
    expect(json(stepped.stdout)).toMatchObject({ range: "6h", binSeconds: 600 });
    // The API's field error on a step the range cannot serve is a usage error.
    const tooFine = await run(["metrics", String(inst.id), "--range", "7d", "--step", "1m"]);
    expect(tooFine.code).toBe(2);
    expect(tooFine.stderr).toContain("step: For this range the step is a multiple of 1200 seconds");

    // Nothing warned of a shutdown, so there is nothing to postpone: the API's 409 is exit 5.
    const snooze = await run(["snooze", String(inst.id), "30m"]);
    expect(snooze.code, snooze.stderr).toBe(5);
    expect(snooze.stderr).toContain("No automatic shutdown is pending");

    await createBudget(org.ctx, org.slug, { name: "cli-monthly", amountUsd: 500 });
    const budgets = await run(["budgets"]);
    expect(budgets.code, budgets.stderr).toBe(0);
    expect(budgets.stdout).toMatch(/cli-monthly\s+organization\s+\$500\.00/);

    const usage = await run(["usage", "--by", "gpu", "--json"]);
    expect(usage.code, usage.stderr).toBe(0);
    expect(json(usage.stdout)).toMatchObject({
      by: "gpu",
      daily: { groupBy: "gpu_model" },
      forecast: { currency: "USD" },
    });
    const csv = await run(["usage", "--csv"]);
    expect(csv.stdout.split("\r\n")[0]).toMatch(/^id,.*amount/);

    const stop = await run(["stop", String(inst.id), "-q"]);
    expect(stop).toMatchObject({ code: 0, stdout: `${inst.id}\n` });
    // Stopping what is already stopping is the API's 409: exit 5 with the problem's words.
    const again = await run(["stop", String(inst.id)]);
    expect(again.code).toBe(5);
    expect(again.stderr).toMatch(/^error: Conflict: /);
  });

  it("logs -f follows the server's event stream until the run ends, then exits 0", async () => {
    process.env.FORJA_LOG_FOLLOW_MS = "100";
    const { instance } = await launch(org.ctx, org.slug, notebookSpec(fleet.region, { name: "cli-follow" }));
    await workerPass();
    const readsBefore = logReads;
    let ended = false;
    const followed = await run(["logs", instance.id, "-f", "--json"], {
      env: { FORJA_URL: server.url, FORJA_TOKEN: token },
      // A few polls' worth of lines, then the instance ends: the server closes the stream with `end`.
      during: async () => {
        if (!ended && logReads - readsBefore >= 4) {
          ended = true;
          await terminate(org.ctx, org.slug, instance.id);
        }
      },
    });
    delete process.env.FORJA_LOG_FOLLOW_MS;
    expect(followed.code, followed.stderr).toBe(0);
    const lines = followed.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { at: string; text: string });
    // The provider writes a line per read: the lines of later reads arrived on the same connection.
    expect(ended).toBe(true);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(lines.every((l) => l.text === "epoch 1/3 loss=0.42")).toBe(true);
    const times = lines.map((l) => l.at);
    expect([...times].sort()).toEqual(times);
    expect(new Set(times).size).toBe(times.length);
    // Another organization's instance: the stream is never opened, the 404 is exit 3.
    const stranger = await newOrg("cli-follow-other");
    const { instance: theirs } = await launch(stranger.ctx, stranger.slug, notebookSpec(fleet.region));
    const refused = await run(["logs", theirs.id, "-f"], {
      env: { FORJA_URL: server.url, FORJA_TOKEN: token },
    });
    expect(refused.code).toBe(3);
  });

  it("ls --watch redraws until Ctrl-C: a stop made meanwhile shows in a later frame, SIGINT ends it with exit 0", async () => {
    const { instance } = await launch(org.ctx, org.slug, notebookSpec(fleet.region, { name: "cli-watch" }));
    const FRAME = "\x1b[2J\x1b[H";
    const stateIn = (frame: string) =>
      /\b(queued|provisioning|running|stopping|stopped)\b/.exec(
        frame.split("\n").find((l) => l.includes(instance.id)) ?? "",
      )?.[1];
    let stopped = false;
    let interrupted = false;
    const watched = await run(["ls", "--watch"], {
      env: { FORJA_URL: server.url, FORJA_TOKEN: token },
      // The worker moves it to running; once a frame shows that, a stop; once a frame shows the stop, Ctrl-C.
      during: async (child) => {
        const frames = child.stdout().split(FRAME);
        // The last frame may still be arriving: judge by the last whole one.
        const seen = stateIn(frames.at(-2) ?? "");
        if (!stopped && seen === "running") {
          stopped = true;
          await stop(org.ctx, org.slug, instance.id);
        } else if (!stopped) {
          await workerPass();
        } else if (!interrupted && seen === "stopping") {
          interrupted = true;
          child.signal("SIGINT");
        }
      },
    });
    expect(watched.code, watched.stderr).toBe(0);
    expect(interrupted).toBe(true);
    const frames = watched.stdout.split(FRAME).filter(Boolean);
    const states = frames.map(stateIn);
    expect(states.indexOf("running")).toBeGreaterThanOrEqual(0);
    expect(states.lastIndexOf("stopping")).toBeGreaterThan(states.indexOf("running"));
    // Every frame is a whole table (the redraw in flight at Ctrl-C finished), the instance in each.
    for (const f of frames) expect(f).toMatch(/^ID\s+NAME\s+STATE/);
    expect(states.every((s) => s !== undefined)).toBe(true);
    await terminate(org.ctx, org.slug, instance.id);
  });

  it("services: create (token shown once), list, get, delete; a deleted one is exit 3", async () => {
    const env = { FORJA_URL: server.url, FORJA_TOKEN: token };
    const args = [
      "--type",
      "h100.1x",
      "--region",
      fleet.region,
      "--image",
      "pytorch-2.5-cuda12.4",
      "--max",
      "2",
    ];
    const created = await run(["services", "create", "--name", "cli-chat", ...args, "--json"], { env });
    expect(created.code, created.stdout + created.stderr).toBe(0);
    const svc = json(created.stdout);
    expect(svc).toMatchObject({ name: "cli-chat", maxReplicas: 2, auth: "token" });
    expect(String(svc.token)).not.toBe("");
    const human = await run(["services", "create", "--name", "cli-open", ...args, "--public"], { env });
    expect(human.stdout).toMatch(/cli-open: created .*\nPublic: no token needed\./);
    const open = json((await run(["services", "get", "cli-open", "--json"], { env })).stdout);
    await seedServiceHistory(org, String(open.id), fleet.region, new Date());
    const stats = await run(["services", "stats", "cli-open"], { env });
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stdout).toMatch(/Range\s+1h \(120 steps of 30 s\)/);
    expect(stats.stdout).toMatch(/Requests\s+150 \(0\.04\/s\)\s+[▁-█ ]+█/);
    expect(stats.stdout).toMatch(/Replicas\s+peak desired 2, ready 1/);
    expect(stats.stdout).toMatch(/Errors\s+4 × 5xx \(1 hold timeouts\), 2 × 4xx/);
    const series = json(
      (await run(["services", "stats", "cli-open", "--range", "7d", "--json"], { env })).stdout,
    );
    expect(series).toMatchObject({ range: "7d", stepSeconds: 5040 });
    expect((await run(["services", "stats", "cli-open", "--range", "2y"], { env })).code).toBe(2);

    const list = await run(["services"], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^NAME\s+REGION\s+TYPE\s+READY/);
    expect(list.stdout).toMatch(/cli-chat\s+\S+\s+h100\.1x\s+0\/\d+\s+0–2\s+token/);
    const got = await run(["services", "get", String(svc.id)], { env });
    expect(got.stdout).toMatch(/Replicas\s+0–2, target 4 concurrency/);

    // The same name again: the API's field error, exit 2; a bad flag never reaches the server.
    const again = await run(["services", "create", "--name", "cli-chat", ...args], { env });
    expect(again.code, again.stderr).toBe(2);
    expect((await run(["services", "create", "--name", "x", ...args, "--metric", "qps"], { env })).code).toBe(
      2,
    );

    const del = await run(["services", "delete", String(svc.id), "-q"], { env });
    expect(del).toMatchObject({ code: 0, stdout: `${svc.id}\n` });
    expect((await run(["services", "get", String(svc.id)], { env })).code).toBe(3);
    const ids = (json((await run(["services", "list", "--json"], { env })).stdout).items ?? []).map(
      (s) => s.name,
    );
    expect(ids).toEqual(["cli-open"]);
  });

  it("--lang es / LANG=es: the CLI's own messages from its Spanish catalog, the API's field messages too", async () => {
    const fresh = await newOrg("cli-es");
    const env = {
      FORJA_URL: server.url,
      FORJA_TOKEN: (await createApiToken(fresh.ctx, fresh.slug, { name: "es" })).secret,
    };
    const empty = await run(["services"], { env: { ...env, LANG: "es_ES.UTF-8" } });
    expect(empty.stdout).toContain("Aún no hay servicios");
    expect((await run(["services"], { env: { ...env, LANG: "C.UTF-8" } })).stdout).toContain(
      "No services yet",
    );
    const args = ["--name", "es-chat", "--type", "h100.1x", "--region", fleet.region, "--image", "nope:1"];
    const refused = await run(["--lang", "es", "services", "create", ...args], { env });
    expect(refused.code).toBe(2);
    // Accept-Language: es went with the call, so the problem's field message is the API's Spanish one.
    expect(refused.stderr).toContain("image: Esta imagen no existe");
    const english = await run(["services", "create", ...args], { env });
    expect(english.stderr).toContain("image: This image does not exist");
    expect((await run(["--lang", "fr", "services"], { env })).code).toBe(2);
  });

  it("forja admin with an operator's admin token; a write token (even an operator's) is refused, exit 4", async () => {
    const ops = await newOrg("cli-ops");
    await getDb().update(users).set({ isOperator: true }).where(eq(users.id, ops.user.id));
    const opCtx = { actor: { ...(ops.actor as UserActor), isOperator: true } };
    const adminToken = (await createApiToken(opCtx, ops.slug, { name: "ops", scope: "admin" })).secret;
    const writeToken = (await createApiToken(opCtx, ops.slug, { name: "ci" })).secret;
    const asker = await newOrg("cli-asker");
    const req = await createQuotaRequest(asker.ctx, asker.slug, {
      gpuModelId: "h100",
      regionCode: fleet.region,
      requestedGpus: 640,
      reason: "CLI admin test",
    });
    const env = { FORJA_URL: server.url, FORJA_TOKEN: adminToken };
    const list = await run(["admin", "quota-requests", "--status", "open", "--json"], { env });
    expect(list.code, list.stderr).toBe(0);
    expect((json(list.stdout).items ?? []).some((r) => r.id === req.id)).toBe(true);
    const refused = await run(["admin", "quota-requests"], { env: { ...env, FORJA_TOKEN: writeToken } });
    expect(refused.code).toBe(4);
    const approved = await run(["admin", "approve", req.id, "--gpus", "320", "--json"], { env });
    expect(approved.code, approved.stderr).toBe(0);
    expect(json(approved.stdout)).toMatchObject({ id: req.id, status: "partial", grantedGpus: 320 });
    // Decided already: the API's conflict is exit 5.
    expect((await run(["admin", "deny", req.id], { env })).code).toBe(5);
  });

  it("apply with a service: created, unchanged the second time, scaling in place, a port change replaces", async () => {
    const owner = await newOrg("cli-apply-svc");
    const env = {
      FORJA_URL: server.url,
      FORJA_TOKEN: (await createApiToken(owner.ctx, owner.slug, { name: "svc" })).secret,
    };
    const file = path.join(configDir, "services.yaml");
    const doc = (max: number, port: number) => `kind: service
name: apply-chat
instanceType: h100.1x
region: ${fleet.region}
image: pytorch-2.5-cuda12.4
port: ${port}
maxReplicas: ${max}
`;
    fs.writeFileSync(file, doc(2, 8000));
    const first = await run(["apply", "-f", file, "--json"], { env });
    expect(first.code, first.stderr).toBe(0);
    const [made] = (json(first.stdout).items ?? []) as Array<{ action: string; id: string }>;
    expect(made).toMatchObject({ action: "create" });
    const second = await run(["apply", "-f", file], { env });
    expect(second.stdout).toContain("= service/apply-chat: unchanged");
    expect(second.stdout).toContain("Nothing to do");

    fs.writeFileSync(file, doc(3, 8000));
    const scaled = await run(["apply", "-f", file, "--json"], { env });
    expect(scaled.code, scaled.stderr).toBe(0);
    expect(json(scaled.stdout).items?.[0]).toMatchObject({ action: "update", id: made?.id });
    const got = await run(["services", "get", String(made?.id), "--json"], { env });
    expect(json(got.stdout)).toMatchObject({ maxReplicas: 3 });

    fs.writeFileSync(file, doc(3, 9000));
    const dry = await run(["apply", "-f", file, "--dry-run"], { env });
    expect(dry.stdout).toMatch(/~ service\/apply-chat: will be replaced .*\n\s+port:\n\s+- 8000\n\s+\+ 9000/);
    const replaced = await run(["apply", "-f", file, "--yes", "--json"], { env });
    expect(replaced.code, replaced.stderr).toBe(0);
    const [now] = (json(replaced.stdout).items ?? []) as Array<{ action: string; id: string }>;
    expect(now?.action).toBe("replace");
    expect(now?.id).not.toBe(made?.id);

    const del = await run(["delete", "-f", file, "--yes", "--json"], { env });
    expect(json(del.stdout).items).toEqual([{ name: "service/apply-chat", id: now?.id, action: "deleted" }]);
    expect(json((await run(["services", "list", "--json"], { env })).stdout).items).toEqual([]);
  });

  it("quotas and quota request: the request is made (--json parsed), listed with the quotas; a bad one is exit 2", async () => {
    const q = await newOrg("cli-quota");
    await bigQuota(q.org.id, fleet.region, 16);
    const env = {
      FORJA_URL: server.url,
      FORJA_TOKEN: (await createApiToken(q.ctx, q.slug, { name: "cli" })).secret,
    };
    const asked = await run(
      [
        "quota",
        "request",
        "--gpu",
        "h100",
        "--region",
        fleet.region,
        "--gpus",
        "64",
        "--reason",
        "Q1 run",
        "--json",
      ],
      { env },
    );
    expect(asked.code, asked.stderr).toBe(0);
    const made = json(asked.stdout);
    expect(made).toMatchObject({ gpuModelId: "h100", regionCode: fleet.region, requestedGpus: 64 });

    // Other tests add priced model × region pairs meanwhile: the CLI's list is read between these two.
    const before = await listOrgQuotas(q.ctx, q.slug);
    const listed = await run(["quotas", "--json"], { env });
    const after = await listOrgQuotas(q.ctx, q.slug);
    expect(listed.code, listed.stderr).toBe(0);
    const both = JSON.parse(listed.stdout) as {
      quotas: Array<Record<string, unknown>>;
      requests: Array<Record<string, unknown>>;
    };
    expect(both.quotas).toContainEqual(
      expect.objectContaining({ gpuModelId: "h100", regionCode: fleet.region, nominalGpus: 16 }),
    );
    // All of them (every page, as the API lists them): every pair there was before the CLI ran, and none that
    // appeared only after — other tests price new pairs meanwhile, so a count could differ by a few.
    const pair = (x: Record<string, unknown>) => `${x.gpuModelId}/${x.regionCode}`;
    const cliPairs = new Set(both.quotas.map(pair));
    expect(before.map(pair).filter((k) => !cliPairs.has(k))).toEqual([]);
    expect([...cliPairs].filter((k) => !after.map(pair).includes(k))).toEqual([]);
    expect(both.requests.map((r) => r.id)).toEqual([made.id]);
    const human = await run(["quotas"], { env });
    expect(human.stdout).toMatch(/NOMINAL[\s\S]*Requests:/);

    // Not more than the nominal already held: a field error, exit 2, nothing asked.
    const below = await run(
      ["quota", "request", "--gpu", "h100", "--region", fleet.region, "--gpus", "8", "--reason", "less"],
      { env },
    );
    expect(below.code, below.stderr).toBe(2);
    expect(below.stderr).toContain("requestedGpus");
    const missing = await run(
      ["quota", "request", "--gpu", "h100", "--region", fleet.region, "--gpus", "64"],
      {
        env,
      },
    );
    expect(missing.code).toBe(2);
    const again = JSON.parse((await run(["quotas", "--json"], { env })).stdout) as { requests: unknown[] };
    expect(again.requests).toHaveLength(1);
  });

  it("quota policy: shown, set by an admin (If-Match from its read), refused for a member (exit 4), bad value exit 2; launch --priority", async () => {
    const q = await newOrg("cli-policy");
    await bigQuota(q.org.id, fleet.region, 1);
    const env = {
      FORJA_URL: server.url,
      FORJA_TOKEN: (await createApiToken(q.ctx, q.slug, { name: "cli" })).secret,
    };
    const shown = await run(["quota", "policy"], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("Priority only orders the queue");
    const on = await run(["quota", "policy", "--preempt", "on", "--json"], { env });
    expect(on.code, on.stderr).toBe(0);
    expect(json(on.stdout)).toEqual({ preemptLowerPriority: true });
    expect(await getQuotaPolicy(q.ctx, q.slug)).toEqual({ preemptLowerPriority: true });
    const bad = await run(["quota", "policy", "--preempt", "maybe"], { env });
    expect(bad.code).toBe(2);
    const member = await q.as("member");
    const memberEnv = { ...env, FORJA_TOKEN: (await createApiToken(member, q.slug, { name: "cli" })).secret };
    const refused = await run(["quota", "policy", "--preempt", "off"], { env: memberEnv });
    expect(refused.code).toBe(4);
    expect(await getQuotaPolicy(q.ctx, q.slug)).toEqual({ preemptLowerPriority: true });

    // --priority reaches the launch: with the policy on, a priority-50 launch over the quota preempts.
    const base = ["launch", "--type", "h100.1x", "--region", fleet.region, "--image", "pytorch-2.5-cuda12.4"];
    const low = await run([...base, "--name", "cli-low", "--priority", "-5", "--json"], { env });
    expect(low.code, low.stderr).toBe(0);
    const [lowRow] = await getDb()
      .select({ priority: instances.priority })
      .from(instances)
      .where(eq(instances.id, String(json(low.stdout).id)));
    expect(lowRow?.priority).toBe(-5);
    const high = await run([...base, "--name", "cli-high", "--priority", "50", "--json"], { env });
    // The low one is still queued (it holds nothing), so it cannot be preempted: quota refusal, exit 4.
    expect(high.code, high.stdout).toBe(4);
    expect(high.stderr).toMatch(/not enough of it runs here/);
  });

  it("exit codes: 3 not found, 4 refused, 2 for field errors (printed per field), 2 for bad flags", async () => {
    const env = { FORJA_URL: server.url, FORJA_TOKEN: token };
    const missing = await run(["status", "00000000-0000-4000-8000-000000000000"], { env });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("Not Found");

    // A member's token, then the member demoted to viewer: the token acts with the role of the moment.
    const member = await org.as("member");
    const memberToken = (await createApiToken(member, org.slug, { name: "m" })).secret;
    if (member.actor.kind !== "user") throw new Error("a user");
    await getDb()
      .update(memberships)
      .set({ role: "viewer" })
      .where(eq(memberships.userId, member.actor.userId));
    const refused = await run(
      [
        "launch",
        "--name",
        "nope",
        "--type",
        "h100.1x",
        "--region",
        fleet.region,
        "--image",
        "pytorch-2.5-cuda12.4",
      ],
      { env: { FORJA_URL: server.url, FORJA_TOKEN: memberToken } },
    );
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toContain("Forbidden");

    const invalid = await run(
      [
        "launch",
        "--name",
        "Bad Name",
        "--type",
        "h100.1x",
        "--region",
        fleet.region,
        "--image",
        "pytorch-2.5-cuda12.4",
        "--json",
      ],
      { env },
    );
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/\n {2}name: /);
    expect(json(invalid.stdout)).toMatchObject({ status: 422, errors: { name: [expect.any(String)] } });

    expect((await run(["launch", "--bogus"], { env })).code).toBe(2);
  });

  it("apply twice is a no-op the second time; a changed file shows the diff; delete terminates", async () => {
    const other = await newOrg("cli-apply");
    await bigQuota(other.org.id, fleet.region);
    const env = {
      FORJA_URL: server.url,
      FORJA_TOKEN: (await createApiToken(other.ctx, other.slug, { name: "a" })).secret,
    };
    // The schema editors validate apply files with: the launch spec's or the budget's, from the server.
    const schema = (await (await fetch(`${server.url}/api/v1/apply.schema.json`)).json()) as {
      anyOf: Array<{ required: string[] }>;
    };
    expect(schema.anyOf.map((s) => s.required)).toEqual([
      ["kind", "name", "project", "region", "instanceType", "image"],
      ["name", "amountUsd", "kind"],
      ["kind"],
      ["name", "image", "instanceType", "region", "kind"],
    ]);
    const file = path.join(configDir, "fleet.yaml");
    const doc = (
      type: string,
      epochs: string,
      amount: number,
    ) => `# yaml-language-server: $schema=${server.url}/api/v1/apply.schema.json
kind: notebook
name: apply-nb
project: default
region: ${fleet.region}
instanceType: h100.1x
image: pytorch-2.5-cuda12.4
---
kind: container
name: apply-train
project: default
region: ${fleet.region}
instanceType: ${type}
image: pytorch-2.5-cuda12.4
command: python
args: [train.py]
env: { EPOCHS: "${epochs}" }
---
kind: budget
name: apply-cap
amountUsd: ${amount}
actionAt100: block_launches
---
kind: auto-shutdown-policy
project: default
warningMinutes: ${amount === 1000 ? 15 : 20}
`;
    fs.writeFileSync(file, doc("h100.1x", "3", 1000));
    const first = await run(["apply", "-f", file, "--json"], { env });
    expect(first.code, first.stderr).toBe(0);
    const created = json(first.stdout) as { items: Array<{ name: string; action: string; id: string }> };
    expect(created.items.map((i) => [i.name, i.action])).toEqual([
      ["apply-nb", "create"],
      ["apply-train", "create"],
      ["apply-cap", "create"],
      ["project=default", "create"],
    ]);

    const second = await run(["apply", "-f", file], { env });
    expect(second.code, second.stdout).toBe(0);
    expect(second.stdout).toContain("= apply-nb: unchanged");
    expect(second.stdout).toContain("= apply-train: unchanged");
    expect(second.stdout).toContain("= budget/apply-cap: unchanged");
    expect(second.stdout).toContain("= policy/project=default: unchanged");
    expect(second.stdout).toContain("Nothing to do");

    fs.writeFileSync(file, doc("h100.2x", "5", 1500));
    const dry = await run(["apply", "-f", file, "--dry-run"], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("= apply-nb: unchanged");
    expect(dry.stdout).toContain("~ apply-train: will be replaced");
    expect(dry.stdout).toMatch(/instanceType:\n\s+- h100\.1x\n\s+\+ h100\.2x/);
    expect(dry.stdout).toMatch(/env:\n\s+- \{"EPOCHS":"3"\}\n\s+\+ \{"EPOCHS":"5"\}/);
    // A budget changes in place (PUT with If-Match), not by replacement.
    expect(dry.stdout).toMatch(
      /~ budget\/apply-cap: will be updated in place\n\s+amountUsd:\n\s+- 1000\n\s+\+ 1500/,
    );
    expect(dry.stdout).toMatch(
      /~ policy\/project=default: will be updated in place\n\s+warningMinutes:\n\s+- 15\n\s+\+ 20/,
    );
    // A script that did not say --yes changes nothing.
    const unconfirmed = await run(["apply", "-f", file], { env });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain("--yes");

    const replaced = await run(["apply", "-f", file, "--yes", "--json"], { env });
    expect(replaced.code, replaced.stderr).toBe(0);
    const after = json(replaced.stdout) as { items: Array<{ name: string; action: string; id: string }> };
    expect(after.items[1]).toMatchObject({ name: "apply-train", action: "replace" });
    expect(after.items[1]?.id).not.toBe(created.items[1]?.id);
    expect(after.items[2]).toMatchObject({ name: "apply-cap", action: "update", id: created.items[2]?.id });
    expect(after.items[3]).toMatchObject({
      name: "project=default",
      action: "update",
      id: created.items[3]?.id,
    });
    const budgets = await run(["budgets", "--json"], { env });
    expect(json(budgets.stdout).items).toMatchObject([
      { name: "apply-cap", amountUsd: 1500, actionAt100: "block_launches" },
    ]);
    expect((await run(["apply", "-f", file], { env })).stdout).toContain("Nothing to do");

    const del = await run(["delete", "-f", file, "--yes", "-q"], { env });
    expect(del.code, del.stderr).toBe(0);
    expect(del.stdout.trim().split("\n").sort()).toEqual(
      [created.items[0]?.id, after.items[1]?.id, created.items[2]?.id, created.items[3]?.id].sort(),
    );
    expect(json((await run(["budgets", "--json"], { env })).stdout).items).toEqual([]);
    // The policy is gone too: its scope falls back to the organization's.
    const policies = await listAutoShutdownPolicies(other.ctx, other.slug);
    expect(policies).toEqual([]);
    // A second delete finds nothing: every document is absent, nothing is asked or changed.
    const again = await run(["delete", "-f", file, "--yes", "--json"], { env });
    expect(again.code, again.stderr).toBe(0);
    expect((json(again.stdout).items ?? []).map((i) => i.action)).toEqual([
      "absent",
      "absent",
      "absent",
      "absent",
    ]);
    const ls = await run(["ls", "--json"], { env });
    const states = Object.fromEntries((json(ls.stdout).items ?? []).map((i) => [i.id, i.state]));
    expect(states[String(after.items[1]?.id)]).toMatch(/^(terminating|terminated|cancelled)$/);
  });
});

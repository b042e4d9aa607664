import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { freePort, startEmbeddedPostgres } from "../../lib/db/embedded";
import { runMigrations } from "../../lib/db/migrate";
import { sourceFingerprint } from "../../lib/runtime/build-fingerprint";
import { startE2EKubernetes, startE2ESlurm } from "./engines";
import { AUTH_DIR, E2E_DIR, E2E_DIST_DIR, MAILBOX_DIR, STATE_FILE } from "./env";
import { startTestOidcProvider } from "./oidc";
import { startMailbox } from "./smtp";

const NODE_TSX = ["--conditions=react-server", "--import", "tsx"];

function waitForHttp(url: string, timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = async () => {
      if (child.exitCode !== null) return reject(new Error(`server exited with ${child.exitCode}`));
      try {
        const r = await fetch(url);
        if (r.ok) return resolve();
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${url}`));
      setTimeout(attempt, 250);
    };
    void attempt();
  });
}

/**
 * Starts the whole stack for the browser tests on throwaway state: embedded PostgreSQL on a free port, a real
 * SMTP server writing to a mailbox folder, a real OIDC provider, a production build of the console, and the
 * worker. Refuses to run against anything but a local database.
 */
export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0]?.use.baseURL ?? `http://localhost:${process.env.E2E_PORT}`;
  const port = Number(new URL(baseURL).port);
  fs.rmSync(E2E_DIR, { recursive: true, force: true });
  fs.mkdirSync(MAILBOX_DIR, { recursive: true });
  fs.mkdirSync(AUTH_DIR, { recursive: true });

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "forja-e2e-"));
  fs.chmodSync(tmp, 0o755);
  const db = await startEmbeddedPostgres({
    dataDir: path.join(tmp, "pg"),
    port: await freePort(),
    persistent: false,
  });
  const host = new URL(db.url).hostname;
  if (host !== "127.0.0.1" && host !== "localhost") throw new Error("E2E tests refuse a non-local database");
  await runMigrations(db.url);

  const mailbox = await startMailbox(MAILBOX_DIR);
  const oidc = await startTestOidcProvider(`${baseURL}/api/auth/callback/oidc`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: db.url,
    // No NEXTAUTH_URL, as in the default `npm start`: the console must work on whatever host it is reached by
    // (e2e/hosts.spec.ts). Email links use localhost:PORT.
    NEXTAUTH_SECRET: "e2e-only-secret-not-used-anywhere-else",
    SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
    OIDC_ISSUER: oidc.issuer,
    OIDC_CLIENT_ID: oidc.clientId,
    OIDC_CLIENT_SECRET: oidc.clientSecret,
    OIDC_NAME: "Acme SSO",
    FORJA_E2E: "1",
    // Every journey signs up from the same loopback address.
    FORJA_SIGNUP_LIMIT_PER_HOUR: "1000",
    // Every journey signs in from 127.0.0.1: the per-address sign-in limit (20 per 5 min) would refuse the suite.
    FORJA_SIGNIN_LIMIT_PER_IP: "1000",
    // Parallel journeys poll live views as the same seeded users: the API's per-user read limit would bite.
    FORJA_API_READ_LIMIT: "100000",
    // Simulated provisioning/stop delays ÷ 30, so journeys see queued → running in seconds.
    FORJA_SIM_SPEED: process.env.FORJA_SIM_SPEED ?? "30",
    // No journey is about the simulator's 3 % failed starts; with them, a journey that waits for "Running" fails
    // one launch in 33.
    FORJA_SIM_FAILURE_RATE: process.env.FORJA_SIM_FAILURE_RATE ?? "0",
    // Reclaim, drain and preemption journeys wait out the notice: 45 s instead of 2 minutes, still long enough
    // for a page on a loaded machine to show "Being preempted" before it ends.
    FORJA_SPOT_NOTICE_SECONDS: process.env.FORJA_SPOT_NOTICE_SECONDS ?? "45",
    NEXT_DIST_DIR: E2E_DIST_DIR,
    PORT: String(port),
  };

  const seed = spawnSync(process.execPath, [...NODE_TSX, "e2e/support/seed.ts"], { env, stdio: "inherit" });
  if (seed.status !== 0) throw new Error("e2e seed failed");

  const stamp = path.join(E2E_DIST_DIR, "forja-build-fingerprint");
  const fingerprint = sourceFingerprint();
  if (!fs.existsSync(stamp) || fs.readFileSync(stamp, "utf8") !== fingerprint) {
    const build = spawnSync(path.resolve("node_modules/.bin/next"), ["build"], { env, stdio: "inherit" });
    if (build.status !== 0) throw new Error("next build failed");
    fs.writeFileSync(stamp, fingerprint);
  }

  // Last before the server, so a failed build leaves no daemons behind; the web server and the worker both need it.
  const slurm = await startE2ESlurm();
  if ("cluster" in slurm) env.FORJA_SLURM = slurm.forjaSlurm;
  const kubernetes = await startE2EKubernetes(tmp);
  env.FORJA_KUBERNETES_CONFIG = kubernetes.configFile;

  env.FORJA_GATEWAY_PORT = String(await freePort());
  // The production web server (records the TCP peer for rate limits), as `npm start` runs it.
  const server = spawn(process.execPath, ["scripts/serve.mjs", "-p", String(port)], {
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const worker = spawn(process.execPath, [...NODE_TSX, "scripts/worker.ts"], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  // The services gateway and replica host (as `npm start` runs them), with short cold starts for the journey.
  const services = spawn(process.execPath, [...NODE_TSX, "scripts/services.ts"], {
    env: { ...env, FORJA_SERVICE_COLD_START_MS: "3000" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitForHttp(`${baseURL}/api/health`, 60_000, server);
  fs.writeFileSync(
    STATE_FILE,
    JSON.stringify({
      databaseUrl: db.url,
      oidcIssuer: oidc.issuer,
      smtpPort: mailbox.port,
      slurmSkipped: "skipped" in slurm ? slurm.skipped : null,
      slurmConf: "cluster" in slurm ? slurm.cluster.confPath : null,
    }),
  );

  return async () => {
    for (const c of [server, worker, services]) c.kill("SIGTERM");
    await Promise.all(
      [server, worker, services].map(
        (c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once("exit", r))),
      ),
    );
    await oidc.stop();
    await mailbox.stop();
    if ("cluster" in slurm) await slurm.cluster.stop();
    await kubernetes.stop();
    await db.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
}

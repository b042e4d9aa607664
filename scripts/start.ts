/**
 * One command for a single machine: embedded PostgreSQL (unless DATABASE_URL is set), migrations, demo seed on
 * an empty database, a production build when sources changed, the web server and the worker. Ctrl-C stops all.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { closeDb } from "@/lib/db/client";
import { type EmbeddedDb, isPortFree, StartupError, startEmbeddedPostgres } from "@/lib/db/embedded";
import { runMigrations, withStartupLock } from "@/lib/db/migrate";
import { buildIfChanged } from "@/lib/runtime/build-fingerprint";
import { missingSharedSettings } from "@/lib/runtime/required-env";
import { dataDir, loadOrCreateSecrets } from "@/lib/runtime/secrets";
import { seedIfEmpty } from "@/lib/seed";

const dev = process.argv.includes("--dev");
const children: ChildProcess[] = [];
let embedded: EmbeddedDb | null = null;
let shuttingDown = false;

async function shutdown(code: number): Promise<never> {
  if (!shuttingDown) {
    shuttingDown = true;
    for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null) return resolve();
            const t = setTimeout(() => {
              c.kill("SIGKILL");
              resolve();
            }, 8000);
            c.once("exit", () => {
              clearTimeout(t);
              resolve();
            });
          }),
      ),
    );
    if (embedded) await embedded.stop().catch(() => {});
  }
  process.exit(code);
}

function buildIfNeeded(env: NodeJS.ProcessEnv): void {
  const announce = () => console.log("[forja] building the console (first start or sources changed)…");
  try {
    buildIfChanged(process.env.NEXT_DIST_DIR || ".next", env, announce);
  } catch (e) {
    throw new StartupError(e instanceof Error ? e.message : String(e));
  }
}

async function main(): Promise<void> {
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  const dir = dataDir();
  const port = Number(process.env.PORT ?? 3000);
  if (!(await isPortFree(port, "0.0.0.0"))) {
    throw new StartupError(
      `Port ${port} is already in use. Fix: stop whatever uses it, or run with PORT=<free port>.`,
    );
  }
  const missing = missingSharedSettings();
  if (missing.length > 0) throw new StartupError(missing.join("\n[forja] "));
  const secrets = loadOrCreateSecrets(dir);
  let url = process.env.DATABASE_URL;
  if (!url) {
    const dbPort = Number(process.env.FORJA_DB_PORT ?? 54329);
    console.log(`[forja] starting embedded PostgreSQL (data in ${path.join(dir, "pg")}, port ${dbPort})…`);
    embedded = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), port: dbPort, persistent: true });
    url = embedded.url;
  }
  process.env.DATABASE_URL = url;
  const dbUrl = url;
  const seeded = await withStartupLock(dbUrl, async () => {
    await runMigrations(dbUrl);
    return seedIfEmpty({ dataDir: dir });
  });
  // The web server and worker open their own pools; this process no longer needs one.
  await closeDb();

  // NEXTAUTH_URL is passed on only when set: without it the console answers on whatever host it is reached by
  // (localhost, 127.0.0.1, its LAN name); see lib/auth/next-auth.ts.
  const baseUrl = process.env.NEXTAUTH_URL ?? `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url,
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? secrets.nextauthSecret,
    // One machine with its own database: without SMTP, keeping emails in the outbox is the intended default.
    ...(embedded && !process.env.SMTP_URL ? { FORJA_OUTBOX_ONLY: "1" } : {}),
    PORT: String(port),
  };
  if (!dev) buildIfNeeded(env);

  // Production runs behind scripts/serve.mjs, which records the TCP peer for rate limits (see that file).
  const next = dev
    ? spawn(path.resolve("node_modules/.bin/next"), ["dev", "-p", String(port)], {
        stdio: ["ignore", "inherit", "inherit"],
        env,
      })
    : spawn(process.execPath, ["scripts/serve.mjs", "-p", String(port)], {
        stdio: ["ignore", "inherit", "inherit"],
        env,
      });
  children.push(next);
  if (process.env.FORJA_NO_WORKER !== "1") {
    const worker = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/worker.ts"],
      {
        stdio: ["ignore", "inherit", "inherit"],
        env,
      },
    );
    children.push(worker);
    worker.on("exit", (code) => {
      if (!shuttingDown) {
        console.error(`[forja] worker exited with code ${code}; stopping.`);
        void shutdown(1);
      }
    });
  }
  // The services gateway and the simulated replicas' host (docs/adr/0012), next to the console's port by
  // default (3000 → 3100). One per deployment: a second start on one database sets FORJA_NO_SERVICES=1; a port
  // already taken skips it with a line saying so rather than stopping the console.
  const gatewayPort = Number(process.env.FORJA_GATEWAY_PORT ?? port + 100);
  const startServices = process.env.FORJA_NO_SERVICES !== "1" && (await isPortFree(gatewayPort, "0.0.0.0"));
  if (process.env.FORJA_NO_SERVICES !== "1" && !startServices) {
    console.log(
      `[forja] port ${gatewayPort} is in use: the services gateway is not started (set FORJA_GATEWAY_PORT).`,
    );
  }
  if (startServices) {
    const svc = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/services.ts"],
      { stdio: ["ignore", "inherit", "inherit"], env: { ...env, FORJA_GATEWAY_PORT: String(gatewayPort) } },
    );
    children.push(svc);
    svc.on("exit", (code) => {
      // 0: it found its port taken by another start and stood aside; the console goes on.
      if (!shuttingDown && code !== 0) {
        console.error(`[forja] services gateway exited with code ${code}; stopping.`);
        void shutdown(1);
      }
    });
  }
  next.on("exit", (code) => {
    if (!shuttingDown) {
      console.error(`[forja] web server exited with code ${code}; stopping.`);
      void shutdown(1);
    }
  });

  console.log("");
  console.log(
    `[forja] console: ${baseUrl}${process.env.NEXTAUTH_URL ? "" : " (or this machine's address or name)"}`,
  );
  for (const line of seeded.signInLines) console.log(`[forja] ${line}`);
  console.log("[forja] press Ctrl-C to stop everything (the database included).");
}

main().catch(async (err) => {
  if (err instanceof StartupError) console.error(`[forja] ${err.message}`);
  else console.error("[forja] failed to start:", err);
  await shutdown(1);
});

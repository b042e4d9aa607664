/**
 * The console as `npm start` runs it, for the page and load benchmarks: its own embedded PostgreSQL holding the
 * demo seed (not the bench database other benchmarks fill), a production build (rebuilt only when the sources
 * changed; NEXT_DIST_DIR, default .next-bench), and scripts/serve.mjs listening on loopback only. No worker:
 * the demo data stays as seeded while it is measured. The owner signs in through next-auth's credentials flow
 * (CSRF token, then the callback), as the sign-in form does on the server.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startEmbeddedPostgres } from "@/lib/db/embedded";
import { runMigrations } from "@/lib/db/migrate";
import { buildIfChanged } from "@/lib/runtime/build-fingerprint";

export type ConsoleFixture = {
  orgSlug: string;
  owner: { email: string; password: string };
  instanceId: string | null;
  apiToken: string;
};

export type ConsoleServer = {
  baseUrl: string;
  fixture: ConsoleFixture;
  /** The signed-in owner's cookies, as a Cookie header. */
  cookie: string;
  stop: () => Promise<void>;
};

const NODE_TSX = ["--conditions=react-server", "--import", "tsx"];

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the console exited with ${child.exitCode}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${url}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function cookiesOf(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(";")[0] as string);
}

/** next-auth's own sign-in: a CSRF token and its cookie, then the credentials callback mints the session. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = cookiesOf(csrf);
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  const session = cookiesOf(res).filter((c) => c.includes("session-token="));
  if (!session.length) throw new Error(`sign-in as ${email} failed (HTTP ${res.status}, no session cookie)`);
  return session.join("; ");
}

export async function startConsole(opts: { env?: Record<string, string> } = {}): Promise<ConsoleServer> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "forja-bench-console-"));
  fs.chmodSync(tmp, 0o755);
  const db = await startEmbeddedPostgres({
    dataDir: path.join(tmp, "pg"),
    port: await freePort(),
    persistent: false,
  });
  let server: ChildProcess | null = null;
  const stop = async () => {
    if (server && server.exitCode === null) {
      const s = server;
      s.kill("SIGTERM");
      await new Promise((r) => s.once("exit", r));
    }
    await db.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    await runMigrations(db.url);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: db.url,
      FORJA_DATA_DIR: path.join(tmp, "data"),
      FORJA_OUTBOX_ONLY: "1",
      ...opts.env,
    };
    console.log("   seeding the demo (as npm start does on an empty database)…");
    const seed = spawnSync(process.execPath, [...NODE_TSX, "scripts/bench/console-seed.ts"], {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    if (seed.status !== 0) throw new Error("demo seed failed");
    const last = seed.stdout.trim().split("\n").at(-1) ?? "";
    const fixture = JSON.parse(last) as ConsoleFixture;
    const distDir = process.env.NEXT_DIST_DIR || ".next-bench";
    buildIfChanged(distDir, env, () => console.log(`   building the console into ${distDir}…`));
    const port = await freePort();
    server = spawn(process.execPath, ["scripts/serve.mjs", "-p", String(port)], {
      env: { ...env, NEXT_DIST_DIR: distDir, HOSTNAME: "127.0.0.1", PORT: String(port) },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHealth(`${baseUrl}/api/health`, server);
    const cookie = await signIn(baseUrl, fixture.owner.email, fixture.owner.password);
    return { baseUrl, fixture, cookie, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

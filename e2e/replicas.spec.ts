import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { freePort } from "../lib/db/embedded";
import { E2E_DIST_DIR, type E2EState, STATE_FILE } from "./support/env";

/**
 * Issue 12 item 14: two `npm start`s at once raced on migrations and the seed, each host made its own session
 * secret, and pg-boss's default policy let a pass overlap itself. Here two full replicas (each: the web server
 * and a worker, through scripts/start.ts) start at the same moment on one fresh database. Migrations and the
 * seed are applied once, a session made on one is accepted by the other, and no periodic task runs twice at
 * the same time. They reuse the e2e build (same fingerprint, so start.ts does not rebuild).
 */
test.describe.configure({ timeout: 240_000 });

type Replica = { proc: ChildProcess; port: number; log: string[] };

async function waitHealthy(r: Replica, deadline: number) {
  for (;;) {
    if (r.proc.exitCode !== null) throw new Error(`replica on ${r.port} exited:\n${r.log.join("")}`);
    try {
      if ((await fetch(`http://127.0.0.1:${r.port}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`replica on ${r.port} not healthy:\n${r.log.join("")}`);
    await new Promise((res) => setTimeout(res, 500));
  }
}

test("two replicas on one fresh database: one migration and seed, shared sessions, no overlapping passes", async () => {
  const state = JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as E2EState;
  const dbName = `replicas_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: state.databaseUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(state.databaseUrl);
  url.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-replicas-"));
  const replicas: Replica[] = [];
  const db = new pg.Client({ connectionString: url.toString() });
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: url.toString(),
      NEXTAUTH_SECRET: "replicas-test-shared-secret",
      FORJA_OUTBOX_ONLY: "1",
      FORJA_DEMO_HISTORY_DAYS: "0",
      FORJA_DATA_DIR: dataDir,
      NEXT_DIST_DIR: E2E_DIST_DIR,
    };
    // As `npm start` on a fresh machine: no public URL, no SMTP (FORJA_OUTBOX_ONLY says that is intended).
    delete env.NEXTAUTH_URL;
    delete env.SMTP_URL;
    for (const port of [await freePort(), await freePort()]) {
      const proc = spawn(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"],
        { env: { ...env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] },
      );
      const log: string[] = [];
      proc.stdout?.on("data", (d) => log.push(String(d)));
      proc.stderr?.on("data", (d) => log.push(String(d)));
      replicas.push({ proc, port, log });
    }
    const deadline = Date.now() + 180_000;
    await Promise.all(replicas.map((r) => waitHealthy(r, deadline)));
    await db.connect();

    const journal = JSON.parse(fs.readFileSync("drizzle/meta/_journal.json", "utf8")) as {
      entries: unknown[];
    };
    const applied = await db.query("select count(*)::int as n from drizzle.__drizzle_migrations");
    expect(applied.rows[0].n).toBe(journal.entries.length);
    const operators = await db.query("select count(*)::int as n from users where is_operator");
    expect(operators.rows[0].n).toBe(1);
    const orgs = await db.query("select count(*)::int as n from organizations");
    expect(orgs.rows[0].n).toBe(1);

    // Sign in on replica A (its web server, through the real form's action); the cookie works on replica B.
    const creds = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8")) as {
      owner: { email: string; password: string };
    };
    const [a, b] = replicas as [Replica, Replica];
    const browser = await (await import("@playwright/test")).chromium.launch({
      executablePath: (await import("../playwright.config")).chromiumPath(),
      args: ["--no-sandbox", "--disable-gpu"],
    });
    try {
      const page = await browser.newPage({ locale: "en-US" });
      await page.goto(`http://127.0.0.1:${a.port}/signin`);
      await page.getByLabel("Email").fill(creds.owner.email);
      await page.getByLabel("Password").fill(creds.owner.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(page).toHaveURL(/\/catalog$/, { timeout: 30_000 });
      const cookie = (await page.context().cookies())
        .filter((c) => c.name.includes("next-auth.session-token"))
        .map((c) => `${c.name}=${c.value}`)
        .join("; ");
      expect(cookie).not.toBe("");
      const me = await fetch(`http://127.0.0.1:${b.port}/api/v1/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({
        authentication: "session",
        user: { email: creds.owner.email },
      });
    } finally {
      await browser.close();
    }

    // The periodic passes: every queue of ours is stately, and sampled for a while no task ever has two jobs
    // running. pg-boss's own internal queues (`__pgboss__…`, e.g. its scheduler's send-it) are its business.
    const policies = await db.query(
      "select name, policy from pgboss.queue where name not like '\\_\\_pgboss\\_\\_%'",
    );
    expect(policies.rows.length).toBeGreaterThan(5);
    expect(policies.rows.filter((r) => r.policy !== "stately")).toEqual([]);
    let maxActive = 0;
    for (let i = 0; i < 20; i++) {
      const active = await db.query(
        "select name, count(*)::int as n from pgboss.job where state = 'active' group by name",
      );
      for (const r of active.rows) maxActive = Math.max(maxActive, r.n);
      await new Promise((res) => setTimeout(res, 250));
    }
    expect(maxActive).toBeLessThanOrEqual(1);
    expect(replicas.every((r) => r.proc.exitCode === null)).toBe(true);
  } finally {
    for (const r of replicas) r.proc.kill("SIGTERM");
    await Promise.all(
      replicas.map(
        (r) => new Promise((res) => (r.proc.exitCode !== null ? res(null) : r.proc.once("exit", res))),
      ),
    );
    await db.end().catch(() => {});
    await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

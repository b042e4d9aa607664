import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort, startEmbeddedPostgres } from "../lib/db/embedded";
import { runMigrations } from "../lib/db/migrate";

/** A throwaway PostgreSQL cluster on a free port for the whole unit/integration run. */
export default async function setup(project: TestProject) {
  let url = process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  let tmp: string | null = null;
  if (!url) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "forja-test-"));
    fs.chmodSync(tmp, 0o755);
    const db = await startEmbeddedPostgres({
      dataDir: path.join(tmp, "pg"),
      port: await freePort(),
      persistent: false,
    });
    url = db.url;
    stop = db.stop;
  }
  await runMigrations(url);
  project.provide("databaseUrl", url);
  process.env.DATABASE_URL = url;
  return async () => {
    await stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

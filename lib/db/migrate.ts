import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";

/** Apply the committed SQL migrations in drizzle/ to the database at url. */
export async function runMigrations(url: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await migrate(drizzle(pool), { migrationsFolder: path.resolve(process.cwd(), "drizzle") });
  } finally {
    await pool.end();
  }
}

/**
 * Run `fn` holding a session-level advisory lock on its own connection: several `npm start`s (replicas) on
 * one fresh database then migrate and seed one after another, and the later ones find the work done, instead
 * of racing on CREATE TABLE and on the demo seed.
 */
export async function withStartupLock<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(hashtext('forja:migrate-and-seed'))");
    return await fn();
  } finally {
    await client.query("select pg_advisory_unlock(hashtext('forja:migrate-and-seed'))").catch(() => {});
    await client.end();
  }
}

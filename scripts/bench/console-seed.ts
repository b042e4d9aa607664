/**
 * Child process of scripts/bench/console-server.ts, on the bench's own console database (DATABASE_URL,
 * FORJA_DATA_DIR): the demo seed `npm start` writes on an empty database, then what the page and load
 * benchmarks need from it, printed as one JSON line: the owner's sign-in, an instance and a real API token.
 */
import fs from "node:fs";
import path from "node:path";
import { and, desc, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { instances, organizations, users } from "@/lib/db/schema";
import { dataDir } from "@/lib/runtime/secrets";
import { type DemoCredentials, seedIfEmpty } from "@/lib/seed";
import { createApiToken } from "@/lib/tenancy";

await seedIfEmpty({ dataDir: dataDir() });
const creds = JSON.parse(
  fs.readFileSync(path.join(dataDir(), "demo-credentials.json"), "utf8"),
) as DemoCredentials;
const db = getDb();
const [owner] = await db.select().from(users).where(eq(users.email, creds.owner.email));
if (!owner) throw new Error("the demo owner is missing");
const [org] = await db.select().from(organizations).where(eq(organizations.slug, creds.orgSlug));
if (!org) throw new Error("the demo organization is missing");
const [instance] = await db
  .select({ id: instances.id })
  .from(instances)
  .where(and(eq(instances.orgId, org.id), eq(instances.state, "running")))
  .orderBy(desc(instances.createdAt))
  .limit(1);
const actor = { kind: "user" as const, userId: owner.id, email: owner.email, isOperator: false };
const { secret } = await createApiToken({ actor }, creds.orgSlug, { name: "bench", scope: "read" });
console.log(
  JSON.stringify({
    orgSlug: creds.orgSlug,
    owner: creds.owner,
    instanceId: instance?.id ?? null,
    apiToken: secret,
  }),
);
await closeDb();

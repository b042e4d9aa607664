import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { seedDefaultQuotas, seedImages } from "@/lib/provisioning";
import { seedDemoService } from "@/lib/services";
import { seedDemoHistory } from "@/lib/telemetry";
import { seedCatalog } from "./catalog";
import { createDemoOrg, createUser, type DemoUser } from "./demo";

export type DemoCredentials = { owner: DemoUser; operator: DemoUser; orgSlug: string };

function password(): string {
  return randomBytes(12).toString("base64url");
}

/**
 * On an empty database: the catalog (regions, GPU models, instance types, prices, fleet), a platform operator,
 * and a demo organization with members. Generated passwords are written to <dataDir>/demo-credentials.json
 * (git-ignored) and printed by the start command. On a seeded database it only reads that file back.
 */
export async function seedIfEmpty(opts: {
  dataDir: string;
}): Promise<{ seeded: boolean; signInLines: string[] }> {
  const credFile = path.join(opts.dataDir, "demo-credentials.json");
  const db = getDb();
  const existing = await db.execute<{ n: number }>(sql`select count(*)::int as n from users`);
  let seeded = false;
  if (Number(existing.rows[0]?.n ?? 0) === 0) {
    const creds: DemoCredentials = {
      owner: { email: "owner@acme.example", password: password(), name: "Ada Owner" },
      operator: { email: "operator@forja.example", password: password(), name: "Olga Operator" },
      orgSlug: "acme-ai",
    };
    console.log("[forja] seeding the demo (catalog, fleet, organization)…");
    const demo = await db.transaction(async (tx) => {
      await seedCatalog(tx);
      await seedImages(tx);
      await createUser(tx, { ...creds.operator, isOperator: true });
      const { org, owner } = await createDemoOrg(tx, {
        name: "Acme AI",
        owner: creds.owner,
        members: [
          { email: "member@acme.example", password: password(), name: "Max Member", role: "member" },
          { email: "viewer@acme.example", password: password(), name: "Vera Viewer", role: "viewer" },
        ],
      });
      creds.orgSlug = org.slug;
      await seedDefaultQuotas(tx, org.id);
      return { orgId: org.id, owner: { id: owner.id, email: owner.email } };
    });
    // Thirty days of instances, queue waits and GPU metrics, made by the real engine (lib/telemetry/history.ts).
    await seedDemoHistory(demo.orgId);
    // One running inference service with a day of traffic behind it (its replica starts with the worker).
    await seedDemoService(
      { actor: { kind: "user", userId: demo.owner.id, email: demo.owner.email, isOperator: false } },
      creds.orgSlug,
    ).catch((err) =>
      console.error("[forja] the demo service could not be created; the console works without it", err),
    );
    fs.mkdirSync(opts.dataDir, { recursive: true });
    fs.writeFileSync(credFile, JSON.stringify(creds, null, 2), { mode: 0o600 });
    seeded = true;
  }
  const signInLines: string[] = [];
  if (fs.existsSync(credFile)) {
    const c = JSON.parse(fs.readFileSync(credFile, "utf8")) as DemoCredentials;
    signInLines.push(
      `organization owner: ${c.owner.email} / ${c.owner.password}  (organization "${c.orgSlug}")`,
    );
    signInLines.push(`platform operator:  ${c.operator.email} / ${c.operator.password}`);
  }
  return { seeded, signInLines };
}

export { type CatalogSeedData, catalogSeedData, ensureCatalogSeeded, seedCatalog } from "./catalog";
export { createDemoOrg, createUser } from "./demo";

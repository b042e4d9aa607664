/** Seeds the throwaway e2e database: the catalog, an operator, Acme (every role) and Globex (another tenant). */
import { closeDb, getDb } from "@/lib/db/client";
import { DEFAULT_QUOTA_GPUS, seedDefaultQuotas, seedImages } from "@/lib/provisioning";
import { createDemoOrg, createUser, seedCatalog } from "@/lib/seed";
import { seedEngineRegions } from "./engines";
import { USERS } from "./env";

await getDb().transaction(async (tx) => {
  await seedCatalog(tx);
  // The launch form picks from the image catalog (idempotent if the catalog seed adds it too).
  await seedImages(tx);
  await seedEngineRegions(tx);
  await createUser(tx, { ...USERS.operator, name: "Olga Operator", isOperator: true });
  const acme = await createDemoOrg(tx, {
    name: "Acme AI",
    owner: { ...USERS.owner, name: "Ada Owner" },
    members: [
      { ...USERS.admin, name: "Alan Admin", role: "admin" },
      { ...USERS.member, name: "Max Member", role: "member" },
      { ...USERS.viewer, name: "Vera Viewer", role: "viewer" },
    ],
  });
  const globex = await createDemoOrg(tx, { name: "Globex", owner: { ...USERS.other, name: "Gary Globex" } });
  // Quota rows at the platform default, so the journeys see the same numbers as an unseeded organization.
  for (const { org } of [acme, globex]) await seedDefaultQuotas(tx, org.id, DEFAULT_QUOTA_GPUS);
});
await closeDb();

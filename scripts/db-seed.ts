import { closeDb } from "@/lib/db/client";
import { dataDir } from "@/lib/runtime/secrets";
import { seedIfEmpty } from "@/lib/seed";

const r = await seedIfEmpty({ dataDir: dataDir() });
console.log(r.seeded ? "demo seeded" : "database already has data; nothing seeded");
for (const l of r.signInLines) console.log(l);
await closeDb();

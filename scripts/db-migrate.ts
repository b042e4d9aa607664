import { databaseUrl } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";

await runMigrations(databaseUrl());
console.log("migrations applied");

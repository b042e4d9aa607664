/** `npm run worker`: the background worker alone (needs DATABASE_URL). Several may run at once. */
import { closeDb, databaseUrl } from "@/lib/db/client";
import { missingSharedSettings } from "@/lib/runtime/required-env";
import { startWorker } from "@/lib/worker";

const missing = missingSharedSettings();
if (missing.length > 0) {
  for (const m of missing) console.error(`[worker] ${m}`);
  process.exit(1);
}

const handle = await startWorker({ url: databaseUrl() });
const stop = async () => {
  await handle.stop();
  await closeDb();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());

/** `npm run worker`: the background worker alone (needs DATABASE_URL). Several may run at once. */
import { closeDb, databaseUrl } from "@/lib/db/client";
import { startWorker } from "@/lib/worker";

const handle = await startWorker({ url: databaseUrl() });
const stop = async () => {
  await handle.stop();
  await closeDb();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());

import { sql } from "drizzle-orm";
import { publicHandler } from "@/lib/api/handler";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET: the web process is up and reaches its database (a failure is a 500 problem, logged with a request id). */
export const GET = publicHandler(async () => {
  await getDb().execute(sql`select 1`);
  return Response.json({ ok: true });
});

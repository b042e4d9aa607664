import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";

export type RouteReplica = { id: string; endpoint: string };
export type Route = {
  serviceId: string;
  orgId: string;
  auth: "token" | "public";
  tokenHash: string | null;
  replicas: RouteReplica[];
};

/**
 * The gateway's routing table: every live service by "<org slug>/<service name>", with its ready replicas
 * (ready probe passed, not ended, instance running). Read whole each refresh: a few rows per service.
 */
export async function loadRoutes(): Promise<Map<string, Route>> {
  const res = await getDb().execute<{
    id: string;
    org_id: string;
    key: string;
    auth: "token" | "public";
    token_hash: string | null;
    replicas: RouteReplica[] | null;
  }>(sql`
    select s.id, s.org_id, o.slug || '/' || s.name as key, s.spec->>'auth' as auth, s.token_hash,
      (select json_agg(json_build_object('id', r.id, 'endpoint', r.endpoint) order by r.ordinal)
         from service_replicas r join instances i on i.id = r.instance_id
        where r.service_id = s.id and r.ended_at is null and r.ready_at is not null
          and r.endpoint is not null and i.state = 'running') as replicas
    from services s join organizations o on o.id = s.org_id
    where s.deleted_at is null`);
  return new Map(
    res.rows.map((r) => [
      r.key,
      { serviceId: r.id, orgId: r.org_id, auth: r.auth, tokenHash: r.token_hash, replicas: r.replicas ?? [] },
    ]),
  );
}

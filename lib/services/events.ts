import "server-only";
import { and, desc, eq, gt } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { serviceEvents } from "@/lib/db/schema";
import { formatMessage } from "@/lib/notify";
import { messagesFor } from "@/messages";

/** The English wording is the catalog's own, so the stored text reads as the English console shows it. */
const ENGLISH = messagesFor("en").Services.events;
export type ServiceEventCode = keyof typeof ENGLISH;
export type ServiceEventParams = Record<string, string | number>;

export async function recordServiceEvent(
  exec: Executor,
  e: { orgId: string; serviceId: string; at: Date; code: ServiceEventCode; params?: ServiceEventParams },
): Promise<void> {
  const params = e.params ?? {};
  await exec.insert(serviceEvents).values({
    orgId: e.orgId,
    serviceId: e.serviceId,
    at: e.at,
    code: e.code,
    params,
    text: formatMessage("en", ENGLISH[e.code], params),
  });
}

function sameParams(a: ServiceEventParams, b: ServiceEventParams): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * A refusal repeats every autoscaler pass while its cause lasts: record it once per `withinMs` with the same
 * wording, so the timeline shows that it happened and why, not a wall of copies.
 */
export async function recordServiceEventOnce(
  exec: Executor,
  e: Parameters<typeof recordServiceEvent>[1],
  withinMs: number,
): Promise<boolean> {
  const [last] = await exec
    .select({ code: serviceEvents.code, params: serviceEvents.params })
    .from(serviceEvents)
    .where(
      and(
        eq(serviceEvents.serviceId, e.serviceId),
        gt(serviceEvents.at, new Date(e.at.getTime() - withinMs)),
        eq(serviceEvents.code, e.code),
      ),
    )
    .orderBy(desc(serviceEvents.id))
    .limit(1);
  // jsonb returns keys in its own order (shorter first), so compare the params key by key.
  if (last && sameParams(last.params as ServiceEventParams, e.params ?? {})) return false;
  await recordServiceEvent(exec, e);
  return true;
}

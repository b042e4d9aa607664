import "server-only";
import { sql } from "drizzle-orm";
import { checkpoint } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { webhookAttempts } from "@/lib/db/schema";
import { backoffMs } from "./outbox";
import { unseal } from "./sealed";
import { requestBody } from "./webhook-payload";
import { webhookHeaders } from "./webhook-sign";

/** Attempts per round before a delivery is marked failed (a re-send from the console starts a new round). */
export const WEBHOOK_MAX_ATTEMPTS = 8;
/** How long a receiver may take to answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** A webhook's backoff: the outbox's schedule, capped at one hour. */
export function webhookRetryDelayMs(attempts: number): number {
  return backoffMs(attempts, 60 * 60 * 1000);
}

type Due = {
  id: string;
  attempts: number;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  url: string;
  format: "standard" | "slack";
  secret_sealed: string;
  org_slug: string;
  n: number;
};

type Sent = { statusCode: number | null; excerpt: string | null; error: string | null; durationMs: number };

async function post(url: string, headers: Record<string, string>, body: string): Promise<Sent> {
  const started = performance.now();
  try {
    // Redirects are not followed: the endpoint registered is the only place the event goes.
    const res = await fetch(url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    const text = await res.text().catch(() => "");
    return {
      statusCode: res.status,
      excerpt: text.slice(0, 500) || null,
      error: res.status >= 200 && res.status < 300 ? null : `HTTP ${res.status}`,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : "";
    return {
      statusCode: null,
      excerpt: null,
      error: `${err instanceof Error ? err.message : String(err)}${cause}`.slice(0, 500),
      durationMs: Math.round(performance.now() - started),
    };
  }
}

/**
 * Deliver due webhook deliveries, at least once: each is claimed (FOR UPDATE SKIP LOCKED, so concurrent workers
 * split the work), POSTed signed, and its attempt recorded in its own transaction. A delivery waits while an
 * earlier one with the same ordering key on the same endpoint is still pending (in order per instance), and
 * a failure (non-2xx, timeout, refused) is retried with backoff until WEBHOOK_MAX_ATTEMPTS. The `webhook-id`
 * stays the same on every attempt, so receivers drop duplicates.
 */
export async function deliverWebhooks(opts: { now: Date; limit?: number }): Promise<{
  delivered: number;
  failed: number;
}> {
  let delivered = 0;
  let failed = 0;
  for (let i = 0; i < (opts.limit ?? 50); i++) {
    const outcome = await deliverOne(opts.now);
    if (outcome === "none") break;
    if (outcome === "delivered") delivered++;
    else failed++;
  }
  return { delivered, failed };
}

async function deliverOne(now: Date): Promise<"none" | "delivered" | "failed"> {
  return getDb().transaction(async (tx) => {
    const { rows } = await tx.execute<Due>(sql`
      select d.id, d.attempts, d.payload, w.url, w.format, w.secret_sealed, o.slug as org_slug,
             (select count(*)::int + 1 from webhook_attempts a where a.delivery_id = d.id) as n
      from webhook_deliveries d
      join webhook_endpoints w on w.id = d.endpoint_id and w.enabled
      join organizations o on o.id = d.org_id
      where d.status = 'pending' and d.next_attempt_at <= ${now}
        and not exists (
          select 1 from webhook_deliveries p
          where d.ordering_key is not null and p.endpoint_id = d.endpoint_id
            and p.ordering_key = d.ordering_key and p.status = 'pending' and p.seq < d.seq)
      order by d.next_attempt_at, d.seq
      limit 1
      for update of d skip locked`);
    const due = rows[0];
    if (!due) return "none";
    await checkpoint("webhook.claimed");
    const body = requestBody(due.format, due.org_slug, due.payload);
    const sent = await post(due.url, webhookHeaders(unseal(due.secret_sealed), due.id, now, body), body);
    const ok = sent.error === null;
    const attempts = due.attempts + 1;
    await tx.insert(webhookAttempts).values({
      deliveryId: due.id,
      n: due.n,
      at: now,
      statusCode: sent.statusCode,
      responseExcerpt: sent.excerpt,
      error: sent.error,
      durationMs: sent.durationMs,
    });
    const status = ok ? "delivered" : attempts >= WEBHOOK_MAX_ATTEMPTS ? "failed" : "pending";
    await tx.execute(sql`
      update webhook_deliveries set
        status = ${status}, attempts = ${attempts}, last_status_code = ${sent.statusCode},
        delivered_at = ${ok ? now : null},
        next_attempt_at = ${ok ? now : new Date(now.getTime() + webhookRetryDelayMs(attempts))}
      where id = ${due.id}`);
    return ok ? "delivered" : "failed";
  });
}

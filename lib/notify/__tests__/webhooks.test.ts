import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Ctx,
  ForbiddenError,
  NotFoundError,
  systemCtx,
  type UserActor,
  ValidationError,
} from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { auditLog, instances, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import {
  createNotification,
  createWebhookEndpoint,
  deliverWebhooks,
  getWebhookEndpoint,
  MAX_WEBHOOK_ENDPOINTS,
  resendWebhookDelivery,
  sendTestWebhook,
  setWebhookEnabled,
} from "@/lib/notify";
import { cancel, launch, preemptInstance } from "@/lib/provisioning";
import { bigQuota, newFleet, newOrg, notebookSpec } from "@/lib/provisioning/__tests__/fixtures";
import { createQuotaRequest, decideQuotaRequest } from "@/lib/quotas";
import { useOwnDatabase } from "./helpers";

/**
 * Webhooks against a real HTTP receiver on loopback: what it gets is checked the way a receiver would (the
 * Standard Webhooks signature computed here from the secret shown once), with failures, order and re-sends.
 * Delivery reads every due row, so this file has a database of its own.
 */
type Received = { headers: http.IncomingHttpHeaders; body: string; status: number };
let server: http.Server;
let url: string;
const received: Received[] = [];
/** Status codes to answer with, in turn; 200 once the list is used up. */
let answers: number[] = [];

let drop: () => Promise<void>;
let org: Awaited<ReturnType<typeof newOrg>>;
let other: Awaited<ReturnType<typeof newOrg>>;
let region: string;

beforeAll(async () => {
  drop = await useOwnDatabase();
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const status = answers.shift() ?? 200;
      received.push({ headers: req.headers, body, status });
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "receiver broke");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const fleet = await newFleet([{ gpus: 8 }]);
  region = fleet.region;
  org = await newOrg("hook");
  other = await newOrg("hook-other");
  await bigQuota(org.org.id, region);
}, 120_000);

afterAll(async () => {
  await new Promise((r) => server.close(r));
  await drop();
});

/** The receiver's side of Standard Webhooks: HMAC-SHA256 of "<id>.<timestamp>.<body>" with the decoded key. */
function verify(secret: string, r: Received): boolean {
  const id = String(r.headers["webhook-id"]);
  const ts = String(r.headers["webhook-timestamp"]);
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${ts}.${r.body}`).digest("base64");
  return String(r.headers["webhook-signature"]).split(" ").includes(`v1,${expected}`);
}

const endpointCount = async (orgId: string) =>
  (await getDb().select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.orgId, orgId)))[0]
    ?.n;

async function deliverAll(at: Date) {
  return deliverWebhooks({ now: at });
}

describe("registering an endpoint", () => {
  it("refuses bad input with a message per field and writes nothing", async () => {
    const bad = [
      { url: "ftp://hooks.example.com/x", events: ["instance.state_changed"], field: "url" },
      { url: "http://hooks.example.com/x", events: ["instance.state_changed"], field: "url" },
      { url: "https://user:pw@hooks.example.com/x", events: ["instance.state_changed"], field: "url" },
      { url: "not a url", events: ["instance.state_changed"], field: "url" },
      { url: "https://hooks.example.com/x", events: [], field: "events" },
      { url: "https://hooks.example.com/x", events: ["instance.exploded"], field: "events.0" },
    ];
    for (const b of bad) {
      const err = await createWebhookEndpoint(org.ctx, org.slug, b).catch((e) => e);
      expect(err, JSON.stringify(b)).toBeInstanceOf(ValidationError);
      expect(Object.keys((err as ValidationError).fieldErrors)).toContain(b.field);
    }
    expect(await endpointCount(org.org.id)).toBe(0);
  });

  it("is for admins; another tenant's organization is not found", async () => {
    const member = await org.as("member");
    const input = { url: "https://hooks.example.com/x", events: ["instance.state_changed"] };
    await expect(createWebhookEndpoint(member, org.slug, input)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createWebhookEndpoint(other.ctx, org.slug, input)).rejects.toBeInstanceOf(NotFoundError);
    expect(await endpointCount(org.org.id)).toBe(0);
  });

  it("keeps the secret sealed: not in the database in clear, not in the audit log", async () => {
    const { endpoint, secret } = await createWebhookEndpoint(other.ctx, other.slug, {
      url: "https://hooks.example.com/T0/B0/routing-token",
      events: ["instance.state_changed"],
    });
    expect(secret).toMatch(/^whsec_/);
    const [row] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));
    expect(row?.secretHint).toBe(`whsec_…${secret.slice(-4)}`);
    const audits = await getDb().select().from(auditLog).where(eq(auditLog.targetId, endpoint.id));
    expect(audits.map((a) => a.action)).toEqual(["webhook.created"]);
    expect(JSON.stringify(audits)).not.toContain("routing-token");
    // Another tenant reads it as nothing there.
    await expect(getWebhookEndpoint(org.ctx, org.slug, endpoint.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("never lets concurrent creations pass the per-organization limit", async () => {
    const t = await newOrg("hook-limit");
    const input = { url: "https://hooks.example.com/x", events: ["budget.threshold"] };
    const results = await Promise.allSettled(
      Array.from({ length: MAX_WEBHOOK_ENDPOINTS + 5 }, () => createWebhookEndpoint(t.ctx, t.slug, input)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    expect(await endpointCount(t.org.id)).toBe(MAX_WEBHOOK_ENDPOINTS);
  });
});

describe("delivering", () => {
  let secret: string;
  let endpointId: string;
  beforeAll(async () => {
    const created = await createWebhookEndpoint(org.ctx, org.slug, {
      url,
      events: ["instance.state_changed", "budget.threshold"],
    });
    secret = created.secret;
    endpointId = created.endpoint.id;
  });

  it("sends an instance's state changes signed, in order, retrying a 500 without letting a later event pass", async () => {
    received.length = 0;
    answers = [500];
    const { instance } = await launch(org.ctx, org.slug, notebookSpec(region));
    await cancel(org.ctx, org.slug, instance.id);
    const rows = await getDb()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(webhookDeliveries.seq);
    const states = rows.map(
      (r) => (r.payload as { data: { instance: { state: string } } }).data.instance.state,
    );
    expect(states.length).toBeGreaterThanOrEqual(2);

    const t0 = org.clock.now();
    // First try: the receiver answers 500. The later event of the same instance waits behind it.
    expect(await deliverAll(t0)).toEqual({ delivered: 0, failed: 1 });
    expect(await deliverAll(t0)).toEqual({ delivered: 0, failed: 0 });
    // After the backoff (5 s) the first goes again, then the rest in order.
    const r = await deliverAll(new Date(t0.getTime() + 5_000));
    expect(r).toEqual({ delivered: rows.length, failed: 0 });

    expect(received).toHaveLength(rows.length + 1);
    for (const got of received) expect(verify(secret, got)).toBe(true);
    expect(verify(`whsec_${Buffer.from("wrong key").toString("base64")}`, received[0] as Received)).toBe(
      false,
    );
    // The retry carries the same idempotency id as the failed try.
    expect(received[0]?.headers["webhook-id"]).toBe(received[1]?.headers["webhook-id"]);
    const sentStates = received.slice(1).map((g) => JSON.parse(g.body).data.instance.state);
    expect(sentStates).toEqual(states);
    expect(received.slice(1).map((g) => g.headers["webhook-id"])).toEqual(rows.map((x) => x.id));

    const view = await getWebhookEndpoint(org.ctx, org.slug, endpointId);
    const first = view.deliveries.find((d) => d.id === rows[0]?.id);
    expect(first?.status).toBe("delivered");
    expect(first?.history.map((a) => a.statusCode)).toEqual([500, 200]);
    expect(first?.history[0]?.responseExcerpt).toBe("receiver broke");
  });

  it("re-sends a delivery with the same id, keeping the earlier attempts", async () => {
    const [d] = await getDb()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(webhookDeliveries.seq)
      .limit(1);
    if (!d) throw new Error("no delivery");
    received.length = 0;
    await expect(resendWebhookDelivery(other.ctx, other.slug, d.id)).rejects.toBeInstanceOf(NotFoundError);
    const member = await org.as("member");
    await expect(resendWebhookDelivery(member, org.slug, d.id)).rejects.toBeInstanceOf(ForbiddenError);
    await resendWebhookDelivery(org.ctx, org.slug, d.id);
    expect(await deliverAll(org.clock.now())).toEqual({ delivered: 1, failed: 0 });
    expect(received.map((g) => g.headers["webhook-id"])).toEqual([d.id]);
    const [{ n } = { n: 0 }] = await getDb()
      .select({ n: count() })
      .from(webhookAttempts)
      .where(eq(webhookAttempts.deliveryId, d.id));
    expect(n).toBe(3);
  });

  it("gives up after the last attempt and marks the delivery failed", async () => {
    received.length = 0;
    answers = Array(20).fill(503);
    const { deliveryId } = await sendTestWebhook(org.ctx, org.slug, endpointId);
    let at = org.clock.now().getTime();
    for (let i = 0; i < 12; i++) {
      await deliverAll(new Date(at));
      at += 60 * 60 * 1000;
    }
    const [d] = await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    expect(d?.status).toBe("failed");
    expect(d?.attempts).toBe(8);
    expect(received).toHaveLength(8);
    answers = [];
  });

  it("sends a budget threshold notification as budget.threshold, once", async () => {
    received.length = 0;
    const n = {
      orgId: org.org.id,
      kind: "budget.actual",
      severity: "warning" as const,
      title: "Budget ML at 80%",
      body: "Spent $80 of $100",
      params: { budgetId: "b1", pct: 80 },
      dedupeKey: `budget-test-${org.org.id}`,
      at: org.clock.now(),
    };
    await createNotification(getDb(), n);
    await createNotification(getDb(), n);
    await deliverAll(org.clock.now());
    expect(received.map((g) => JSON.parse(g.body).type)).toEqual(["budget.threshold"]);
    expect(JSON.parse(received[0]?.body ?? "{}").data.params.pct).toBe(80);
  });

  it("a paused endpoint gets no new deliveries; events it does not subscribe to are not sent", async () => {
    await setWebhookEnabled(org.ctx, org.slug, endpointId, "false");
    const before = (
      await getDb()
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpointId))
    )[0]?.n;
    const { instance } = await launch(org.ctx, org.slug, notebookSpec(region));
    await cancel(org.ctx, org.slug, instance.id);
    const after = (
      await getDb()
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpointId))
    )[0]?.n;
    expect(after).toBe(before);
    await setWebhookEnabled(org.ctx, org.slug, endpointId, "true");
  });

  it("Slack-compatible endpoints get a text line, still signed", async () => {
    const slack = await createWebhookEndpoint(org.ctx, org.slug, {
      url: `${url}/slack`,
      events: ["instance.state_changed"],
      format: "slack",
    });
    received.length = 0;
    const { instance } = await launch(org.ctx, org.slug, notebookSpec(region, { name: "slack-nb" }));
    await deliverAll(org.clock.now());
    const got = received.filter((g) => JSON.parse(g.body).text);
    expect(got.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(got[0]?.body ?? "{}").text).toMatch(/instance slack-nb is now/);
    expect(verify(slack.secret, got[0] as Received)).toBe(true);
    await cancel(org.ctx, org.slug, instance.id);
    await getDb().execute(sql`delete from webhook_endpoints where id = ${slack.endpoint.id}`);
  });
});

// Issue 10: besides state changes and budget thresholds, endpoints subscribe to spot reclaim notices,
// shutdown warnings and quota request decisions; each reaches the receiver signed, with its own data.
describe("the other event kinds", () => {
  it("sends a spot reclaim notice, a shutdown warning and a quota decision, each signed", async () => {
    const o = await newOrg("hook-kinds");
    await bigQuota(o.org.id, region);
    const events = ["instance.spot_reclaimed", "instance.shutdown_warning", "quota_request.decided"];
    const { secret: key } = await createWebhookEndpoint(o.ctx, o.slug, { url: `${url}/kinds`, events });
    received.length = 0;
    answers = [];

    // A running spot instance whose capacity is reclaimed (set running here: placement is tested elsewhere).
    const { instance } = await launch(o.ctx, o.slug, notebookSpec(region, { name: "spot-nb" }));
    await getDb()
      .update(instances)
      .set({ state: "running", pricingModel: "spot", startedAt: o.clock.now() })
      .where(eq(instances.id, instance.id));
    await preemptInstance(systemCtx("webhook-test"), instance.id);
    // The auto-shutdown warning is an in-console notification that is also a webhook event.
    await createNotification(getDb(), {
      orgId: o.org.id,
      kind: "autoshutdown.warning",
      severity: "warning" as const,
      title: "spot-nb will be stopped in 15 minutes",
      body: "Idle for 45 minutes",
      params: { instanceId: instance.id, minutes: 15 },
      dedupeKey: `shutdown-test-${instance.id}`,
      at: o.clock.now(),
    });
    const op: Ctx = { actor: { ...(o.actor as UserActor), isOperator: true } };
    const asked = await createQuotaRequest(o.ctx, o.slug, {
      gpuModelId: "h100",
      regionCode: region,
      requestedGpus: 12_000,
      reason: "Webhook kinds test",
    });
    await decideQuotaRequest(op, asked.id, {
      decision: "approve",
      grantedGpus: 12_000,
      message: "All of it",
    });

    // The organization's clock and the operator's (real time) differ: deliver once both events are due.
    await deliverAll(new Date(Math.max(Date.now(), o.clock.now().getTime()) + 1000));
    const got = received.filter((g) => events.includes(JSON.parse(g.body).type));
    expect(got.map((g) => JSON.parse(g.body).type).sort()).toEqual([...events].sort());
    for (const g of got) expect(verify(key, g)).toBe(true);
    const byType = Object.fromEntries(got.map((g) => [JSON.parse(g.body).type, JSON.parse(g.body).data]));
    expect(byType["instance.spot_reclaimed"]).toMatchObject({
      instance: { id: instance.id, name: "spot-nb", state: "preempting" },
      reason: { code: "spot_reclaimed" },
    });
    expect(byType["instance.shutdown_warning"]).toMatchObject({ params: { minutes: 15 } });
    expect(byType["quota_request.decided"]).toMatchObject({
      requestId: asked.id,
      status: "approved",
      grantedGpus: 12_000,
    });
  });
});

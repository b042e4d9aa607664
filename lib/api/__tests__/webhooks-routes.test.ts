import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as resendRoute } from "@/app/api/v1/orgs/[org]/webhooks/[id]/deliveries/[deliveryId]/resend/route";
import { GET as deliveriesRoute } from "@/app/api/v1/orgs/[org]/webhooks/[id]/deliveries/route";
import {
  DELETE as deleteRoute,
  GET as getRoute,
  PATCH as patchRoute,
} from "@/app/api/v1/orgs/[org]/webhooks/[id]/route";
import { POST as testRoute } from "@/app/api/v1/orgs/[org]/webhooks/[id]/test/route";
import { POST as createRoute, GET as listRoute } from "@/app/api/v1/orgs/[org]/webhooks/route";
import { getDb } from "@/lib/db/client";
import { apiIdempotencyKeys, webhookEndpoints } from "@/lib/db/schema";
import { newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { call, expectProblem, postJson, tokenFor } from "./support";

// Every answer below is also checked against the OpenAPI document by `call` (support.ts). Delivery itself
// (signatures, retries, order) is tested against a real receiver in lib/notify/__tests__/webhooks.test.ts.
let o: Awaited<ReturnType<typeof newOrg>>;
let token: string;
beforeAll(async () => {
  o = await newOrg("hook-api");
  token = await tokenFor(o.ctx, o.slug);
});

const good = {
  url: "https://hooks.example.com/forja",
  events: ["instance.state_changed", "budget.threshold"],
};
const endpoints = async () =>
  (await getDb().select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.orgId, o.org.id)))[0]
    ?.n;

describe("webhooks over the API", () => {
  it("refuses a bad endpoint with field errors and writes nothing", async () => {
    const res = await postJson(
      createRoute,
      `/orgs/${o.slug}/webhooks`,
      { org: o.slug },
      {
        url: "http://hooks.example.com/x",
        events: [],
      },
      { token },
    );
    const body = await expectProblem(res, 422);
    expect(Object.keys(body.errors as object).sort()).toEqual(["events", "url"]);
    expect(await endpoints()).toBe(0);
  });

  it("creates with the secret once; an Idempotency-Key replay has no secret and creates nothing more", async () => {
    const headers = { "idempotency-key": `hook-${o.org.id}` };
    const first = await postJson(createRoute, `/orgs/${o.slug}/webhooks`, { org: o.slug }, good, {
      token,
      headers,
    });
    expect(first.status).toBe(201);
    const made = (await first.json()) as { id: string; secret: string | null };
    expect(made.secret).toMatch(/^whsec_/);
    const again = await postJson(createRoute, `/orgs/${o.slug}/webhooks`, { org: o.slug }, good, {
      token,
      headers,
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: string; secret: null }).secret).toBeNull();
    expect(await endpoints()).toBe(1);
    // The stored replay does not hold the secret either.
    const stored = await getDb()
      .select()
      .from(apiIdempotencyKeys)
      .where(eq(apiIdempotencyKeys.orgId, o.org.id));
    expect(JSON.stringify(stored)).not.toContain((made.secret as string).slice(6));

    const list = (await (
      await call(listRoute, `/orgs/${o.slug}/webhooks?limit=1`, { org: o.slug }, { token })
    ).json()) as {
      items: Array<{ id: string }>;
      next: string | null;
    };
    expect(list.items.map((e) => e.id)).toEqual([made.id]);
    expect(list.next).toBeNull();
  });

  it("pauses with If-Match (a stale ETag is a 412 and changes nothing), tests, lists deliveries, resends, deletes", async () => {
    const made = (await (
      await postJson(createRoute, `/orgs/${o.slug}/webhooks`, { org: o.slug }, good, { token })
    ).json()) as { id: string };
    const p = { org: o.slug, id: made.id };
    const base = `/orgs/${o.slug}/webhooks/${made.id}`;
    const got = await call(getRoute, base, p, { token });
    const etag = got.headers.get("etag") as string;
    expect(etag).toBeTruthy();
    const patch = (enabled: unknown, ifMatch?: string) =>
      call(patchRoute, base, p, {
        token,
        method: "PATCH",
        headers: { "content-type": "application/json", ...(ifMatch ? { "if-match": ifMatch } : {}) },
        body: JSON.stringify({ enabled }),
      });
    await expectProblem(await patch("maybe"), 422);
    const paused = await patch(false, etag);
    expect(((await paused.json()) as { enabled: boolean }).enabled).toBe(false);
    await expectProblem(await patch(true, etag), 412);
    expect(
      (await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, made.id)))[0]?.enabled,
    ).toBe(false);

    const queued = await call(testRoute, `${base}/test`, p, { token, method: "POST" });
    expect(queued.status).toBe(202);
    const { deliveryId } = (await queued.json()) as { deliveryId: string };
    const deliveries = (await (await call(deliveriesRoute, `${base}/deliveries`, p, { token })).json()) as {
      items: Array<{ id: string; eventType: string; status: string }>;
    };
    expect(deliveries.items).toMatchObject([
      { id: deliveryId, eventType: "webhook.test", status: "pending" },
    ]);
    const resent = await call(
      resendRoute,
      `${base}/deliveries/${deliveryId}/resend`,
      { ...p, deliveryId },
      {
        token,
        method: "POST",
      },
    );
    expect(resent.status).toBe(202);
    await expectProblem(
      await call(
        resendRoute,
        `${base}/deliveries/not-an-id/resend`,
        { ...p, deliveryId: "not-an-id" },
        {
          token,
          method: "POST",
        },
      ),
      404,
    );

    // Another tenant's admin sees nothing there.
    const other = await newOrg("hook-api-other");
    const theirs = await tokenFor(other.ctx, other.slug);
    await expectProblem(
      await call(
        getRoute,
        `/orgs/${other.slug}/webhooks/${made.id}`,
        { org: other.slug, id: made.id },
        { token: theirs },
      ),
      404,
    );

    // A delete made on what was read before the pause is a 412; the endpoint stays.
    const del = (ifMatch: string) =>
      call(deleteRoute, base, p, { token, method: "DELETE", headers: { "if-match": ifMatch } });
    expect((await expectProblem(await del(etag), 412)).reason).toBe("precondition_failed");
    expect(
      await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, made.id)),
    ).toHaveLength(1);
    const fresh = (await call(getRoute, base, p, { token })).headers.get("etag") as string;
    const gone = await del(fresh);
    expect(gone.status).toBe(204);
    await expectProblem(await call(getRoute, base, p, { token }), 404);
  });

  it("is for admins: a member's token is a 403", async () => {
    const member = await o.as("member");
    const theirs = await tokenFor(member, o.slug);
    await expectProblem(
      await call(listRoute, `/orgs/${o.slug}/webhooks`, { org: o.slug }, { token: theirs }),
      403,
    );
    await expectProblem(
      await postJson(createRoute, `/orgs/${o.slug}/webhooks`, { org: o.slug }, good, { token: theirs }),
      403,
    );
  });
});

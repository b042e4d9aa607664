import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as gpuModelsRoute } from "@/app/api/v1/orgs/[org]/catalog/gpu-models/route";
import { GET as regionsRoute } from "@/app/api/v1/orgs/[org]/catalog/regions/route";
import { GET as eventsRoute } from "@/app/api/v1/orgs/[org]/instances/[id]/events/route";
import { GET as queueRoute } from "@/app/api/v1/orgs/[org]/instances/[id]/queue/route";
import { POST as snoozeRoute } from "@/app/api/v1/orgs/[org]/instances/[id]/snooze/route";
import { POST as readRoute } from "@/app/api/v1/orgs/[org]/notifications/read/route";
import { GET as notificationsRoute } from "@/app/api/v1/orgs/[org]/notifications/route";
import { GET as dailyRoute } from "@/app/api/v1/orgs/[org]/usage/daily/route";
import { GET as summaryRoute } from "@/app/api/v1/orgs/[org]/usage/summary/route";
import { GET as topRoute } from "@/app/api/v1/orgs/[org]/usage/top-instances/route";
import { warnedInstance } from "@/lib/autoshutdown/__tests__/helpers";
import { getDb } from "@/lib/db/client";
import { memberships } from "@/lib/db/schema";
import { type BillingCatalog, billingCatalog } from "@/lib/metering/__tests__/fixtures";
import { createNotification } from "@/lib/notify";
import { launch } from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec, type TestFleet } from "@/lib/provisioning/__tests__/fixtures";
import { allPages, call, expectProblem, postJson, tokenFor } from "./support";

// Every answer below is also checked against the OpenAPI document by `call` (support.ts).
let fleet: TestFleet;
let cat: BillingCatalog;
beforeAll(async () => {
  [fleet, cat] = await Promise.all([newFleet([{ gpus: 8 }]), billingCatalog()]);
});

describe("instance timeline, queue insight and snooze", () => {
  it("a queued instance: its events page by page, and its queue reason, position and ETA", async () => {
    const o = await newOrg("insight");
    const stranger = await newOrg("insight-other");
    const token = await tokenFor(o.ctx, o.slug);
    const { instance } = await launch(o.ctx, o.slug, notebookSpec(fleet.region));
    const p = { org: o.slug, id: instance.id };
    const base = `/orgs/${o.slug}/instances/${instance.id}`;

    const events = await call(eventsRoute, `${base}/events?limit=1`, p, { token });
    const page = (await events.json()) as { items: Array<{ to: string }>; next: string | null };
    expect(page.items.map((e) => e.to)).toEqual(["requested"]);
    expect(page.next).not.toBeNull();
    const rest = await call(eventsRoute, `${base}/events?cursor=${page.next}`, p, { token });
    expect(((await rest.json()) as { items: Array<{ to: string }> }).items.map((e) => e.to)).toContain(
      "queued",
    );

    const queue = (await (await call(queueRoute, `${base}/queue`, p, { token })).json()) as {
      state: string;
      queue: { position: number; method: string } | null;
    };
    expect(queue).toMatchObject({ state: "queued", queue: { position: 1 } });

    const theirs = await tokenFor(stranger.ctx, stranger.slug);
    const foreign = { org: stranger.slug, id: instance.id };
    await expectProblem(
      await call(queueRoute, `/orgs/${stranger.slug}/instances/${instance.id}/queue`, foreign, {
        token: theirs,
      }),
      404,
    );
    await expectProblem(
      await call(eventsRoute, `/orgs/${stranger.slug}/instances/${instance.id}/events`, foreign, {
        token: theirs,
      }),
      404,
    );
  });

  it("snoozes a warned shutdown over the API; nothing pending is a 409, too long a 422, a viewer a 403", async () => {
    // Warned by a real pass; it acts at 11:00 (the max runtime).
    const { org, inst, member: memberCtx } = await warnedInstance(cat, "snooze-api");
    const p = { org: org.slug, id: inst.id };
    const path = `/orgs/${org.slug}/instances/${inst.id}/snooze`;
    const member = await tokenFor(memberCtx, org.slug);
    const ok = await postJson(snoozeRoute, path, p, { minutes: 30 }, { token: member });
    expect(ok.status).toBe(200);
    // Acts at 11:00 (the max runtime) → snoozed 30 minutes past that.
    expect(await ok.json()).toEqual({ instanceId: inst.id, snoozedUntil: "2030-05-06T11:30:00.000Z" });
    const tooLong = await postJson(snoozeRoute, path, p, { minutes: 90 }, { token: member });
    // Nothing pending on an instance that was never warned: a 409.
    const { instance: quiet } = await launch(org.ctx, org.slug, notebookSpec(fleet.region));
    const q = { org: org.slug, id: quiet.id };
    const quietPath = `/orgs/${org.slug}/instances/${quiet.id}/snooze`;
    await expectProblem(await postJson(snoozeRoute, quietPath, q, { minutes: 30 }, { token: member }), 409);
    expect(Object.keys((await expectProblem(tooLong, 422)).errors as object)).toEqual(["minutes"]);
    // A token made as a member, then demoted: it acts with the current role.
    const viewer = await org.as("member");
    const viewerToken = await tokenFor(viewer, org.slug);
    if (viewer.actor.kind !== "user") throw new Error("unreachable");
    await getDb()
      .update(memberships)
      .set({ role: "viewer" })
      .where(eq(memberships.userId, viewer.actor.userId));
    await expectProblem(await postJson(snoozeRoute, path, p, { minutes: 30 }, { token: viewerToken }), 403);
  });
});

describe("catalog reference lists", () => {
  it("regions (with what data residency allows) and GPU models, paged", async () => {
    const o = await newOrg("catalog-ref");
    const token = await tokenFor(o.ctx, o.slug);
    const p = { org: o.slug };
    const regions = await allPages<{ code: string; allowed: boolean }, { org: string }>(
      regionsRoute,
      `/orgs/${o.slug}/catalog/regions?limit=100`,
      p,
      { token },
    );
    expect(regions.find((r) => r.code === fleet.region)).toMatchObject({ allowed: true });
    const first = (await (
      await call(gpuModelsRoute, `/orgs/${o.slug}/catalog/gpu-models?limit=1`, p, { token })
    ).json()) as {
      items: Array<{ id: string }>;
      next: string | null;
    };
    expect(first.items).toHaveLength(1);
    expect(first.next).not.toBeNull();
  });
});

describe("usage and costs", () => {
  it("month to date with forecast and method, daily by dimension, top instances; bad input is a 422", async () => {
    const o = await newOrg("usage-api");
    const token = await tokenFor(o.ctx, o.slug);
    const p = { org: o.slug };
    const summary = (await (
      await call(summaryRoute, `/orgs/${o.slug}/usage/summary`, p, { token })
    ).json()) as {
      actualUsd: number;
      method: string;
      currency: string;
    };
    expect(summary).toMatchObject({ actualUsd: 0, currency: "USD" });
    expect(summary.method).toMatch(/burn rate/);
    const q = "from=2030-01-01&to=2030-01-08";
    const daily = await call(dailyRoute, `/orgs/${o.slug}/usage/daily?${q}&groupBy=gpu_model`, p, { token });
    expect(await daily.json()).toMatchObject({ groupBy: "gpu_model", totalUsd: 0 });
    const bad = await call(dailyRoute, `/orgs/${o.slug}/usage/daily?${q}&groupBy=colour`, p, { token });
    expect(Object.keys((await expectProblem(bad, 422)).errors as object)).toEqual(["groupBy"]);
    const top = await call(topRoute, `/orgs/${o.slug}/usage/top-instances?${q}&limit=5`, p, { token });
    expect(await top.json()).toEqual({ items: [], next: null });
    await expectProblem(
      await call(topRoute, `/orgs/${o.slug}/usage/top-instances?from=x`, p, { token }),
      422,
    );
  });
});

describe("notifications", () => {
  it("lists the caller's notifications and marks them read; an empty list of ids is a 422", async () => {
    const o = await newOrg("notes-api");
    const token = await tokenFor(o.ctx, o.slug);
    const p = { org: o.slug };
    const id = await createNotification(getDb(), {
      orgId: o.org.id,
      kind: "budget_alert",
      severity: "warning",
      title: "Budget at 80 %",
      body: "Team used 80 % of $100",
      params: {},
      at: new Date(),
    });
    const list = (await (
      await call(notificationsRoute, `/orgs/${o.slug}/notifications?unread=1`, p, { token })
    ).json()) as {
      items: Array<{ id: string; readAt: string | null }>;
    };
    expect(list.items.map((n) => n.id)).toEqual([id]);
    const marked = await postJson(
      readRoute,
      `/orgs/${o.slug}/notifications/read`,
      p,
      { ids: [id] },
      { token },
    );
    expect(await marked.json()).toEqual({ marked: 1 });
    const unread = await call(notificationsRoute, `/orgs/${o.slug}/notifications?unread=1`, p, { token });
    expect(((await unread.json()) as { items: unknown[] }).items).toEqual([]);
    await expectProblem(
      await postJson(readRoute, `/orgs/${o.slug}/notifications/read`, p, { ids: [] }, { token }),
      422,
    );
  });
});

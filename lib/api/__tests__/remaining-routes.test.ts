import { beforeAll, describe, expect, it } from "vitest";
import { GET as applySchema } from "@/app/api/v1/apply.schema.json/route";
import { GET as launchSpecSchema } from "@/app/api/v1/launch-spec.schema.json/route";
import { POST as cancelRoute } from "@/app/api/v1/orgs/[org]/instances/[id]/cancel/route";
import { GET as manifestsRoute } from "@/app/api/v1/orgs/[org]/instances/[id]/manifests/route";
import { POST as startRoute } from "@/app/api/v1/orgs/[org]/instances/[id]/start/route";
import { POST as stopRoute } from "@/app/api/v1/orgs/[org]/instances/[id]/stop/route";
import { GET as previewRoute } from "@/app/api/v1/orgs/[org]/instances/launch-preview/route";
import { GET as listQuotaRequests } from "@/app/api/v1/orgs/[org]/quota-requests/route";
import { systemCtx } from "@/lib/core";
import {
  createFixedProvider,
  getInstance,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
} from "@/lib/provisioning";
import {
  bigQuota,
  newFleet,
  newOrg,
  notebookSpec,
  type TestFleet,
} from "@/lib/provisioning/__tests__/fixtures";
import { createQuotaRequest } from "@/lib/quotas";
import { createApiToken } from "@/lib/tenancy";
import { allPages, call, expectProblem, postJson, tokenFor } from "./support";

/** The routes no other API test called (found by coverage.test.ts): each one's answer and its refusals. */
const sys = systemCtx("remaining-routes-test");
let fleet: TestFleet;
beforeAll(async () => {
  setProvider(createFixedProvider({ provisionMs: 0, stopMs: 0 }));
  fleet = await newFleet([{ gpus: 8 }]);
});
const pass = async () => {
  await placeQueuedInstances(sys, { regionCode: fleet.region });
  await reconcileInstances(sys, { regionCode: fleet.region });
};

describe("instance verbs start and cancel, the launch preview and the manifests", () => {
  it("start brings a stopped instance back to the queue; cancel ends a queued one; strangers get 404", async () => {
    const o = await newOrg("verbs");
    await bigQuota(o.org.id, fleet.region);
    const other = await newOrg("verbs-other");
    const token = await tokenFor(o.ctx, o.slug);
    const readOnly = (await createApiToken(o.ctx, o.slug, { name: "ro", scope: "read" })).secret;
    const { instance } = await launch(o.ctx, o.slug, notebookSpec(fleet.region));
    await pass();
    const p = { org: o.slug, id: instance.id };
    const base = `/orgs/${o.slug}/instances/${instance.id}`;
    expect((await postJson(stopRoute, `${base}/stop`, p, "", { token })).status).toBe(200);
    await pass();
    expect((await getInstance(o.ctx, o.slug, instance.id)).instance.state).toBe("stopped");
    await expectProblem(await postJson(startRoute, `${base}/start`, p, "", { token: readOnly }), 403);
    const started = await postJson(startRoute, `${base}/start`, p, "", { token });
    expect(started.status).toBe(200);
    expect(((await started.json()) as { state: string }).state).toBe("queued");
    // Queued again: start is a conflict, cancel ends it.
    await expectProblem(await postJson(startRoute, `${base}/start`, p, "", { token }), 409);
    const cancelled = await postJson(cancelRoute, `${base}/cancel`, p, "", { token });
    expect(((await cancelled.json()) as { state: string }).state).toBe("cancelled");
    await expectProblem(await postJson(cancelRoute, `${base}/cancel`, p, "", { token }), 409);

    const { instance: theirs } = await launch(other.ctx, other.slug, notebookSpec(fleet.region));
    const tp = { org: o.slug, id: theirs.id };
    const tb = `/orgs/${o.slug}/instances/${theirs.id}`;
    await expectProblem(await postJson(cancelRoute, `${tb}/cancel`, tp, "", { token }), 404);
    await expectProblem(await postJson(startRoute, `${tb}/start`, tp, "", { token }), 404);
    // Manifests exist for Kubernetes regions only (e2e/kubernetes.spec.ts shows one): this one is a 409.
    await expectProblem(await call(manifestsRoute, `${base}/manifests`, p, { token }), 409);
    await expectProblem(await call(manifestsRoute, `${tb}/manifests`, tp, { token }), 404);
  });

  it("the launch preview prices an offering and refuses an unknown one per field", async () => {
    const o = await newOrg("preview");
    const token = await tokenFor(o.ctx, o.slug);
    const p = { org: o.slug };
    const ok = await call(
      previewRoute,
      `/orgs/${o.slug}/instances/launch-preview?instanceType=h100.1x&region=${fleet.region}`,
      p,
      { token },
    );
    expect(ok.status).toBe(200);
    const bad = await call(
      previewRoute,
      `/orgs/${o.slug}/instances/launch-preview?instanceType=&region=`,
      p,
      {
        token,
      },
    );
    expect(bad.status).toBe(422);
    const stranger = await newOrg("preview-other");
    await expectProblem(
      await call(
        previewRoute,
        `/orgs/${stranger.slug}/instances/launch-preview`,
        { org: stranger.slug },
        { token },
      ),
      404,
    );
  });
});

describe("quota requests list and the published JSON Schemas", () => {
  it("members list their organization's quota requests to the end; another tenant's are not there", async () => {
    const o = await newOrg("qr-list");
    const other = await newOrg("qr-list-other");
    const token = await tokenFor(o.ctx, o.slug);
    const mine = await createQuotaRequest(o.ctx, o.slug, {
      gpuModelId: "h100",
      regionCode: fleet.region,
      requestedGpus: 640,
      reason: "a training run",
    });
    await createQuotaRequest(other.ctx, other.slug, {
      gpuModelId: "h100",
      regionCode: fleet.region,
      requestedGpus: 640,
      reason: "theirs",
    });
    const items = await allPages<{ id: string }, { org: string }>(
      listQuotaRequests,
      `/orgs/${o.slug}/quota-requests?limit=1`,
      { org: o.slug },
      { token },
    );
    expect(items.map((r) => r.id)).toEqual([mine.id]);
  });

  it("the launch spec and apply schemas are public JSON Schema documents", async () => {
    for (const [route, path] of [
      [launchSpecSchema, "/launch-spec.schema.json"],
      [applySchema, "/apply.schema.json"],
    ] as const) {
      const res = await call(route, path, {});
      expect(res.status).toBe(200);
      const schema = (await res.json()) as Record<string, unknown>;
      expect(String(schema.$schema)).toMatch(/json-schema\.org/);
    }
  });
});

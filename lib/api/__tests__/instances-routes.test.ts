import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getInstance } from "@/app/api/v1/orgs/[org]/instances/[id]/route";
import { POST as stopInstance } from "@/app/api/v1/orgs/[org]/instances/[id]/stop/route";
import { POST as terminateInstance } from "@/app/api/v1/orgs/[org]/instances/[id]/terminate/route";
import { POST as launchRoute, GET as listInstancesRoute } from "@/app/api/v1/orgs/[org]/instances/route";
import { instanceDetailSchema, instanceListSchema } from "@/lib/api/openapi/responses";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { auditLog, instances, memberships } from "@/lib/db/schema";
import {
  createFixedProvider,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
  terminate,
} from "@/lib/provisioning";
import {
  newFleet,
  newOrg,
  notebookSpec,
  snapshot,
  type TestFleet,
  testClock,
} from "@/lib/provisioning/__tests__/fixtures";
import { LAUNCH_FIELD_MESSAGES } from "@/lib/provisioning/field-messages";
import { messagesFor } from "@/messages";
import { call, expectDocumented, expectProblem, postJson, tokenFor } from "./support";

let fleet: TestFleet;
beforeAll(async () => {
  setProvider(createFixedProvider({ provisionMs: 30_000, stopMs: 10_000, terminateMs: 5_000 }));
  fleet = await newFleet([{ gpus: 8 }]);
});

const countOf = (orgId: string) => getDb().$count(instances, eq(instances.orgId, orgId));

describe("instances over the API with a token", () => {
  it("launches: 201 with Location, then the Location answers with the instance and its events", async () => {
    const o = await newOrg("api");
    const token = await tokenFor(o.ctx, o.slug);
    const spec = notebookSpec(fleet.region, { name: "from-ci", unknownField: "ignored" });
    const res = await postJson(launchRoute, `/orgs/${o.slug}/instances`, { org: o.slug }, spec, { token });
    expect(res.status).toBe(201);
    const created = await expectDocumented(res, instanceDetailSchema);
    expect(created).toMatchObject({ name: "from-ci", state: "queued", regionCode: fleet.region });
    expect(res.headers.get("location")).toBe(`/api/v1/orgs/${o.slug}/instances/${created.id}`);
    expect(res.headers.get("idempotent-replayed")).toBeNull();

    const got = await call(
      getInstance,
      `/orgs/${o.slug}/instances/${created.id}`,
      { org: o.slug, id: created.id },
      { token },
    );
    expect(got.status).toBe(200);
    const detail = await expectDocumented(got, instanceDetailSchema);
    expect(detail.events.map((e) => e.to)).toEqual(["requested", "queued"]);
    // The audit log says it came through the API.
    const [row] = await getDb()
      .select({ kind: auditLog.actorKind })
      .from(auditLog)
      .where(and(eq(auditLog.orgId, o.org.id), eq(auditLog.targetId, created.id)));
    expect(row?.kind).toBe("api");

    const list = await call(
      listInstancesRoute,
      `/orgs/${o.slug}/instances?state=queued`,
      { org: o.slug },
      { token },
    );
    expect((await expectDocumented(list, instanceListSchema)).items.map((i) => i.id)).toEqual([created.id]);
  });

  it("the same Idempotency-Key twice launches once and answers the same instance", async () => {
    const o = await newOrg("api");
    const token = await tokenFor(o.ctx, o.slug);
    const spec = notebookSpec(fleet.region);
    const headers = { "idempotency-key": "ci-run-42" };
    const send = () =>
      postJson(launchRoute, `/orgs/${o.slug}/instances`, { org: o.slug }, spec, { token, headers });
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const [a, b] = [await first.json(), await second.json()];
    expect(b.id).toBe(a.id);
    expect(second.headers.get("location")).toBe(first.headers.get("location"));
    expect(await countOf(o.org.id)).toBe(1);

    // A different body under a used key is a conflict, not a second instance.
    const other = await postJson(
      launchRoute,
      `/orgs/${o.slug}/instances`,
      { org: o.slug },
      { ...spec, name: "something-else" },
      { token, headers },
    );
    await expectProblem(other, 409);
    // A body key that disagrees with the header is ambiguous.
    const both = await postJson(
      launchRoute,
      `/orgs/${o.slug}/instances`,
      { org: o.slug },
      { ...spec, idempotencyKey: "another" },
      { token, headers },
    );
    expect((await expectProblem(both, 422)).errors).toHaveProperty("idempotencyKey");
    expect(await countOf(o.org.id)).toBe(1);
  });

  it("a bad body is a 422 problem with per-field errors and writes nothing; malformed JSON is a 400", async () => {
    const o = await newOrg("api");
    const token = await tokenFor(o.ctx, o.slug);
    const bad = notebookSpec(fleet.region, { kind: "vm", name: "Not A DNS Name", diskGib: 1 });
    const res = await postJson(launchRoute, `/orgs/${o.slug}/instances`, { org: o.slug }, bad, { token });
    const problem = await expectProblem(res, 422);
    expect(Object.keys(problem.errors as object).sort()).toEqual(["diskGib", "kind", "name"]);
    expect(problem.instance).toBe(`/api/v1/orgs/${o.slug}/instances`);

    const malformed = await postJson(launchRoute, `/orgs/${o.slug}/instances`, { org: o.slug }, '{"kind": ', {
      token,
    });
    expect((await expectProblem(malformed, 400)).detail).toMatch(/not valid JSON/);
    const notAnObject = await postJson(launchRoute, `/orgs/${o.slug}/instances`, { org: o.slug }, "[]", {
      token,
    });
    await expectProblem(notAnObject, 422);
    expect(await countOf(o.org.id)).toBe(0);
  });

  it("field messages follow Accept-Language through the forms' registry (es → Spanish), English by default", async () => {
    const o = await newOrg("api");
    const token = await tokenFor(o.ctx, o.slug);
    const bad = notebookSpec(fleet.region, { kind: "vm", name: "Not A DNS Name" });
    const send = (lang?: string) =>
      postJson(launchRoute, `/orgs/${o.slug}/instances`, { org: o.slug }, bad, {
        token,
        headers: lang ? { "accept-language": lang } : {},
      });
    const es = await send("es-ES,es;q=0.9,en;q=0.5");
    expect(es.headers.get("content-language")).toBe("es");
    const esErrors = (await expectProblem(es, 422)).errors as Record<string, string[]>;
    expect(esErrors.kind).toEqual([messagesFor("es").LaunchFieldErrors.kindInvalid]);
    expect(esErrors.name).toEqual([messagesFor("es").LaunchFieldErrors.namePattern]);
    const en = await send();
    expect(en.headers.get("content-language")).toBe("en");
    const enErrors = (await expectProblem(en, 422)).errors as Record<string, string[]>;
    expect(enErrors.kind).toEqual([LAUNCH_FIELD_MESSAGES.kindInvalid]);
    expect(enErrors.name).toEqual([LAUNCH_FIELD_MESSAGES.namePattern]);
    expect(esErrors.kind).not.toEqual(enErrors.kind);
    // A language the console does not speak falls back to English.
    const fr = (await expectProblem(await send("fr"), 422)).errors as Record<string, string[]>;
    expect(fr).toEqual(enErrors);
    expect(await countOf(o.org.id)).toBe(0);
  });

  it("another organization's instance or organization is a 404 problem", async () => {
    const a = await newOrg("apiA");
    const b = await newOrg("apiB");
    const tokenA = await tokenFor(a.ctx, a.slug);
    const { instance } = await launch(b.ctx, b.slug, notebookSpec(fleet.region));
    // B's instance id under A's slug: absent.
    const viaA = await call(
      getInstance,
      `/orgs/${a.slug}/instances/${instance.id}`,
      { org: a.slug, id: instance.id },
      { token: tokenA },
    );
    await expectProblem(viaA, 404);
    // B's slug with A's token, even though A's user is made a member of B: the token is scoped to A.
    await getDb().insert(memberships).values({ orgId: b.org.id, userId: a.user.id, role: "owner" });
    const viaB = await call(
      getInstance,
      `/orgs/${b.slug}/instances/${instance.id}`,
      { org: b.slug, id: instance.id },
      { token: tokenA },
    );
    await expectProblem(viaB, 404);
    const stopB = await call(
      stopInstance,
      `/orgs/${b.slug}/instances/${instance.id}/stop`,
      { org: b.slug, id: instance.id },
      { method: "POST", token: tokenA },
    );
    await expectProblem(stopB, 404);
    const launchB = await postJson(
      launchRoute,
      `/orgs/${b.slug}/instances`,
      { org: b.slug },
      notebookSpec(fleet.region),
      { token: tokenA },
    );
    await expectProblem(launchB, 404);
    expect(await countOf(b.org.id)).toBe(1);
  });

  it("stopping a terminated instance is a 409 problem; terminating a queued one over the API cancels it", async () => {
    // The lifecycle runs on a clock an hour behind, so every event stays before the API call's real time.
    const o = await newOrg("api", testClock(new Date(Date.now() - 3_600_000)));
    const token = await tokenFor(o.ctx, o.slug);
    const sys = systemCtx("scheduler", { now: o.clock.now });
    const { instance } = await launch(o.ctx, o.slug, notebookSpec(fleet.region));
    await placeQueuedInstances(sys, { regionCode: fleet.region });
    o.clock.advance(30_000);
    await reconcileInstances(sys, { regionCode: fleet.region });
    await terminate(o.ctx, o.slug, instance.id);
    o.clock.advance(5_000);
    await reconcileInstances(sys, { regionCode: fleet.region });
    expect((await snapshot(instance.id)).state).toBe("terminated");

    const path = `/orgs/${o.slug}/instances/${instance.id}/stop`;
    const res = await call(stopInstance, path, { org: o.slug, id: instance.id }, { method: "POST", token });
    const problem = await expectProblem(res, 409);
    expect(problem).toMatchObject({ type: "https://forja.dev/problems/invalid_state", from: "terminated" });
    expect((await snapshot(instance.id)).state).toBe("terminated");

    const { instance: queued } = await launch(
      o.ctx,
      o.slug,
      notebookSpec(fleet.region, { instanceType: "h100.8x" }),
    );
    const t = await call(
      terminateInstance,
      `/orgs/${o.slug}/instances/${queued.id}/terminate`,
      { org: o.slug, id: queued.id },
      { method: "POST", token },
    );
    expect(t.status).toBe(200);
    expect((await expectDocumented(t, instanceDetailSchema)).state).toBe("cancelled");
  });

  it("a token acts with its user's current role: demoted to viewer, it cannot launch (403) but can read", async () => {
    const o = await newOrg("api");
    const memberCtx = await o.as("member");
    if (memberCtx.actor.kind !== "user") throw new Error("unreachable");
    const token = await tokenFor(memberCtx, o.slug);
    await getDb()
      .update(memberships)
      .set({ role: "viewer" })
      .where(and(eq(memberships.orgId, o.org.id), eq(memberships.userId, memberCtx.actor.userId)));
    const res = await postJson(
      launchRoute,
      `/orgs/${o.slug}/instances`,
      { org: o.slug },
      notebookSpec(fleet.region),
      { token },
    );
    await expectProblem(res, 403);
    expect(await countOf(o.org.id)).toBe(0);
    const list = await call(listInstancesRoute, `/orgs/${o.slug}/instances`, { org: o.slug }, { token });
    expect(list.status).toBe(200);
  });
});

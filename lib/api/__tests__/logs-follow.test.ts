import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as logsRoute } from "@/app/api/v1/orgs/[org]/instances/[id]/logs/route";
import { systemCtx } from "@/lib/core";
import {
  createFixedProvider,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
  terminate,
} from "@/lib/provisioning";
import {
  bigQuota,
  newFleet,
  newOrg,
  notebookSpec,
  type TestFleet,
} from "@/lib/provisioning/__tests__/fixtures";
import { BASE, call, expectProblem, tokenFor } from "./support";

const sys = systemCtx("logs-follow-test");
let fleet: TestFleet;
/** Each read of the provider writes one new line just after `from`, so every poll has something to say. */
let reads = 0;

beforeAll(async () => {
  process.env.FORJA_LOG_FOLLOW_MS = "20";
  setProvider({
    ...createFixedProvider({ provisionMs: 0, stopMs: 60_000 }),
    logs: (inst, from) => {
      reads++;
      const at = new Date(Math.max(from.getTime() + 1, (inst.startedAt ?? from).getTime()));
      return [{ at, stream: reads % 2 ? "stdout" : "stderr", text: `line ${reads}` }];
    },
  });
  fleet = await newFleet([{ gpus: 8 }]);
});
afterAll(() => {
  setProvider(null);
  delete process.env.FORJA_LOG_FOLLOW_MS;
});

async function running(label: string) {
  const o = await newOrg(label);
  await bigQuota(o.org.id, fleet.region);
  const { instance } = await launch(o.ctx, o.slug, notebookSpec(fleet.region));
  await placeQueuedInstances(sys, { regionCode: fleet.region });
  await reconcileInstances(sys, { regionCode: fleet.region });
  return { o, id: instance.id, token: await tokenFor(o.ctx, o.slug) };
}

/** Server-Sent Events as they arrive: [event, data] per block; comments are kept as ["comment", text]. */
async function* events(res: Response): AsyncGenerator<[string, string]> {
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    for (let cut = buf.indexOf("\n\n"); cut >= 0; cut = buf.indexOf("\n\n")) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      if (block.startsWith(":")) yield ["comment", block];
      const event = /^event: (.*)$/m.exec(block)?.[1];
      if (event) yield [event, /^data: (.*)$/m.exec(block)?.[1] ?? ""];
    }
  }
}

describe("GET …/logs?follow=1 (Server-Sent Events)", () => {
  it("streams new lines on one connection while the run is live, and ends with `end` when it is over", async () => {
    const { o, id, token } = await running("follow");
    const params = { org: o.slug, id };
    const res = await call(logsRoute, `/orgs/${o.slug}/instances/${id}/logs?follow=1`, params, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("ratelimit-policy")).toMatch(/^"read";/);
    const got: Array<{ at: string; text: string }> = [];
    let end: unknown = null;
    for await (const [event, data] of events(res)) {
      if (event === "line") got.push(JSON.parse(data));
      if (got.length === 3 && event === "line") await terminate(o.ctx, o.slug, id);
      if (event === "end") {
        end = JSON.parse(data);
        break;
      }
    }
    expect(got.length).toBeGreaterThanOrEqual(3);
    const times = got.map((l) => l.at);
    expect([...new Set(times)].sort()).toEqual(times); // each line once, in order
    expect(end).toEqual({ live: false, since: times.at(-1) });
  });

  it("resumes after Last-Event-ID, and stops reading the provider when the client hangs up", async () => {
    const { o, id, token } = await running("follow-resume");
    const params = { org: o.slug, id };
    const first = await call(logsRoute, `/orgs/${o.slug}/instances/${id}/logs`, params, { token });
    const [line] = ((await first.json()) as { lines: Array<{ at: string }> }).lines;
    const hangUp = new AbortController();
    const res = await logsRoute(
      new Request(`${BASE}/orgs/${o.slug}/instances/${id}/logs?follow=true`, {
        headers: { authorization: `Bearer ${token}`, "last-event-id": line?.at ?? "" },
        signal: hangUp.signal,
      }),
      { params: Promise.resolve(params) },
    );
    const it = events(res);
    const next = await it.next();
    const resumed = JSON.parse((next.value as [string, string])[1]) as { at: string };
    expect(resumed.at > (line?.at ?? "")).toBe(true);
    hangUp.abort();
    await it.return(undefined);
    const after = reads;
    await new Promise((r) => setTimeout(r, 150));
    expect(reads).toBe(after);
  });

  it("another organization's instance or a bad query is a problem, never a stream", async () => {
    const mine = await running("follow-mine");
    const theirs = await running("follow-theirs");
    const params = { org: mine.o.slug, id: theirs.id };
    const stranger = await call(
      logsRoute,
      `/orgs/${mine.o.slug}/instances/${theirs.id}/logs?follow=1`,
      params,
      {
        token: mine.token,
      },
    );
    await expectProblem(stranger, 404);
    const bad = await call(
      logsRoute,
      `/orgs/${mine.o.slug}/instances/${mine.id}/logs?follow=1&limit=0`,
      { org: mine.o.slug, id: mine.id },
      { token: mine.token },
    );
    expect(Object.keys((await expectProblem(bad, 422)).errors as object)).toEqual(["limit"]);
  });
});

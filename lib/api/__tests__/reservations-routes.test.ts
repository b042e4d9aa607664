import { describe, expect, it } from "vitest";
import { POST as quoteRoute } from "@/app/api/v1/orgs/[org]/usage/reservations/quote/route";
import { POST as buyRoute, GET as listRoute } from "@/app/api/v1/orgs/[org]/usage/reservations/route";
import { newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { call, expectProblem, postJson, tokenFor } from "./support";

// The reservations routes read their body like every other route (lib/api/body.ts): unreadable JSON is a
// 400, an oversized body a 413, and only well-formed JSON of the wrong shape reaches the schema (422).
describe("reservation routes: one body reader", () => {
  it("malformed JSON is a 400, too large a 413, the wrong shape a 422; nothing is bought", async () => {
    const o = await newOrg("resv");
    const token = await tokenFor(o.ctx, o.slug);
    const path = `/orgs/${o.slug}/usage/reservations`;
    const params = { org: o.slug };
    expect(
      (await expectProblem(await postJson(buyRoute, path, params, '{"gpuCount": ', { token }), 400)).detail,
    ).toMatch(/not valid JSON/);
    await expectProblem(await postJson(buyRoute, path, params, "", { token }), 400);
    await expectProblem(await postJson(quoteRoute, `${path}/quote`, params, "{", { token }), 400);
    const big = JSON.stringify({ note: "x".repeat(70_000) });
    await expectProblem(await postJson(buyRoute, path, params, big, { token }), 413);
    const wrong = await expectProblem(
      await postJson(buyRoute, path, params, { gpuCount: "many" }, { token }),
      422,
    );
    expect(Object.keys(wrong.errors as object)).toContain("gpuCount");
    await expectProblem(await postJson(quoteRoute, `${path}/quote`, params, [], { token }), 422);

    const list = await call(listRoute, path, params, { token });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { items: unknown[] }).items).toEqual([]);
  });
});

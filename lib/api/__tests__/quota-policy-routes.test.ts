import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getPolicy, PUT as putPolicy } from "@/app/api/v1/orgs/[org]/quota-policy/route";
import { getDb } from "@/lib/db/client";
import { newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { getQuotaPolicy, setQuotaPolicy } from "@/lib/quotas";
import { call, expectProblem, tokenFor } from "./support";

const put = (token: string, body: unknown, ifMatch?: string) => ({
  token,
  method: "PUT",
  headers: { "content-type": "application/json", ...(ifMatch ? { "if-match": ifMatch } : {}) },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

describe("GET/PUT /orgs/{org}/quota-policy", () => {
  it("members read it with an ETag; admins set it; a member is refused; a stale If-Match is a 412", async () => {
    const o = await newOrg("qpolicy");
    const path = `/orgs/${o.slug}/quota-policy`;
    const params = { org: o.slug };
    expect(await getQuotaPolicy(await o.as("viewer"), o.slug)).toEqual({ preemptLowerPriority: false });
    const member = await tokenFor(await o.as("member"), o.slug);
    const owner = await tokenFor(o.ctx, o.slug);

    const read = await call(getPolicy, path, params, { token: member });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ preemptLowerPriority: false });
    const etag = read.headers.get("etag") as string;
    expect(etag).toMatch(/^"[\w-]+"$/);

    await expectProblem(
      await call(putPolicy, path, params, put(member, { preemptLowerPriority: true })),
      403,
    );
    const bad = await expectProblem(
      await call(putPolicy, path, params, put(owner, { preemptLowerPriority: "on" })),
      422,
    );
    expect(JSON.stringify(bad)).toMatch(/true or false/);
    expect(await getQuotaPolicy(o.ctx, o.slug)).toEqual({ preemptLowerPriority: false });

    // Someone turns it on in the console meanwhile: our write with the old ETag is refused, nothing written.
    await setQuotaPolicy(o.ctx, o.slug, { preemptLowerPriority: true });
    await expectProblem(
      await call(putPolicy, path, params, put(owner, { preemptLowerPriority: false }, etag)),
      412,
    );
    expect(await getQuotaPolicy(o.ctx, o.slug)).toEqual({ preemptLowerPriority: true });

    const fresh = (await call(getPolicy, path, params, { token: owner })).headers.get("etag") as string;
    const ok = await call(putPolicy, path, params, put(owner, { preemptLowerPriority: false }, fresh));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ preemptLowerPriority: false });
    expect(ok.headers.get("etag")).toBe(etag);
    const audit = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from audit_log where org_id = ${o.org.id} and action = 'quota.policy_changed'`,
    );
    expect(audit.rows[0]?.n).toBe(2);
  });

  it("another organization's admin gets a 404", async () => {
    const o = await newOrg("qpolicy-a");
    const other = await newOrg("qpolicy-b");
    const token = await tokenFor(other.ctx, other.slug);
    const path = `/orgs/${o.slug}/quota-policy`;
    await expectProblem(await call(getPolicy, path, { org: o.slug }, { token }), 404);
    await expectProblem(
      await call(putPolicy, path, { org: o.slug }, put(token, { preemptLowerPriority: true })),
      404,
    );
    expect(await getQuotaPolicy(o.ctx, o.slug)).toEqual({ preemptLowerPriority: false });
  });
});

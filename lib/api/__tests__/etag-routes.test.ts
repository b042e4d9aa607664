import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  DELETE as delPolicy,
  GET as getPolicy,
} from "@/app/api/v1/orgs/[org]/auto-shutdown/policies/[id]/route";
import { PUT as putPolicy } from "@/app/api/v1/orgs/[org]/auto-shutdown/policies/route";
import {
  GET as getMemberRoute,
  PUT as putMember,
  DELETE as removeMemberRoute,
} from "@/app/api/v1/orgs/[org]/members/[id]/route";
import { getAutoShutdownPolicy, setAutoShutdownPolicy } from "@/lib/autoshutdown";
import { getDb } from "@/lib/db/client";
import { memberships } from "@/lib/db/schema";
import { newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { changeMemberRole, getMember } from "@/lib/tenancy";
import { call, expectProblem, tokenFor } from "./support";

const send = (method: string, token: string, ifMatch?: string, body?: unknown) => ({
  token,
  method,
  headers: (ifMatch ? { "if-match": ifMatch } : {}) as Record<string, string>,
  body: body === undefined ? undefined : JSON.stringify(body),
});

describe("ETag and If-Match beyond budgets (issue 10)", () => {
  it("auto-shutdown policies: a lost update is a 412 that writes nothing; the current ETag goes through", async () => {
    const o = await newOrg("etag-policy");
    const token = await tokenFor(o.ctx, o.slug);
    const path = `/orgs/${o.slug}/auto-shutdown/policies`;
    const created = await setAutoShutdownPolicy(o.ctx, o.slug, { maxSnoozes: 2 });
    const one = { org: o.slug, id: created.id };
    const read = await call(getPolicy, `${path}/${created.id}`, one, { token });
    const etag = read.headers.get("etag") as string;
    expect(etag).toMatch(/^"[\w-]+"$/);

    // A colleague changes it in the console meanwhile: our PUT with the old ETag is refused.
    await setAutoShutdownPolicy(o.ctx, o.slug, { maxSnoozes: 5 });
    const stale = await call(putPolicy, path, { org: o.slug }, send("PUT", token, etag, { maxSnoozes: 1 }));
    expect((await expectProblem(stale, 412)).reason).toBe("precondition_failed");
    expect((await getAutoShutdownPolicy(o.ctx, o.slug, created.id)).maxSnoozes).toBe(5);

    const fresh = (await call(getPolicy, `${path}/${created.id}`, one, { token })).headers.get(
      "etag",
    ) as string;
    const ok = await call(putPolicy, path, { org: o.slug }, send("PUT", token, fresh, { maxSnoozes: 1 }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("etag")).not.toBe(fresh);
    // The PUT's ETag is the one GET now gives.
    expect((await call(getPolicy, `${path}/${created.id}`, one, { token })).headers.get("etag")).toBe(
      ok.headers.get("etag"),
    );

    // A scope without a policy has nothing to match: If-Match (even *) is a 412 and creates nothing.
    const project = o.project.slug;
    for (const tag of ['"nope"', "*"]) {
      const none = await call(
        putPolicy,
        path,
        { org: o.slug },
        send("PUT", token, tag, { project, maxSnoozes: 1 }),
      );
      await expectProblem(none, 412);
    }

    // DELETE honours it too: stale → 412 and the policy stays; current → 204.
    const del = `${path}/${created.id}`;
    await expectProblem(await call(delPolicy, del, one, send("DELETE", token, fresh)), 412);
    expect((await getAutoShutdownPolicy(o.ctx, o.slug, created.id)).id).toBe(created.id);
    expect(
      (await call(delPolicy, del, one, send("DELETE", token, ok.headers.get("etag") as string))).status,
    ).toBe(204);
  });

  it("members: a role changed since it was read is a 412 on PUT and DELETE; nothing changes", async () => {
    const o = await newOrg("etag-member");
    const token = await tokenFor(o.ctx, o.slug);
    const m = await o.as("member");
    const id = m.actor.userId;
    const one = { org: o.slug, id };
    const path = `/orgs/${o.slug}/members/${id}`;
    const read = await call(getMemberRoute, path, one, { token });
    expect(((await read.json()) as { role: string }).role).toBe("member");
    const etag = read.headers.get("etag") as string;

    await changeMemberRole(o.ctx, o.slug, { userId: id, role: "viewer" });
    await expectProblem(await call(putMember, path, one, send("PUT", token, etag, { role: "admin" })), 412);
    await expectProblem(await call(removeMemberRoute, path, one, send("DELETE", token, etag)), 412);
    expect((await getMember(o.ctx, o.slug, id)).role).toBe("viewer");

    const fresh = (await call(getMemberRoute, path, one, { token })).headers.get("etag") as string;
    const ok = await call(putMember, path, one, send("PUT", token, fresh, { role: "admin" }));
    expect(ok.status).toBe(200);
    expect((await call(getMemberRoute, path, one, { token })).headers.get("etag")).toBe(
      ok.headers.get("etag"),
    );
    expect(
      (await call(removeMemberRoute, path, one, send("DELETE", token, ok.headers.get("etag") as string)))
        .status,
    ).toBe(204);
    const left = await getDb().select().from(memberships).where(eq(memberships.userId, id));
    expect(left).toHaveLength(0);
    // Another organization's member id is not found (GET too).
    const other = await newOrg("etag-member-other");
    await expectProblem(
      await call(
        getMemberRoute,
        `/orgs/${o.slug}/members/${other.user.id}`,
        { org: o.slug, id: other.user.id },
        { token },
      ),
      404,
    );
  });
});

import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Ctx, ForbiddenError, NotFoundError, type UserActor, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { newFleet, newOrg, testClock } from "@/lib/provisioning/__tests__/fixtures";
import {
  admissionStandingSql,
  listOrgQuotas,
  QUOTA_FIELD_MESSAGES,
  setOrgQuota,
  setProjectShare,
} from "@/lib/quotas";

async function setup() {
  const clock = testClock();
  const fleet = await newFleet([{ gpus: 8 }]);
  const o = await newOrg("share", clock);
  const op: Ctx = { actor: { ...(o.actor as UserActor), isOperator: true }, now: clock.now };
  await setOrgQuota(op, {
    orgId: o.org.id,
    gpuModelId: "h100",
    regionCode: fleet.region,
    nominalGpus: 4,
    borrowingLimitGpus: 0,
  });
  return { fleet, o };
}

describe("organization quotas and project shares", () => {
  it("members read their quotas; admins set project shares within the nominal; nothing written on refusal", async () => {
    const { fleet, o } = await setup();
    const viewer = await o.as("viewer");
    const row = (await listOrgQuotas(viewer, o.slug)).find(
      (r) => r.gpuModelId === "h100" && r.regionCode === fleet.region,
    );
    expect(row).toMatchObject({ nominalGpus: 4, inUseGpus: 0, borrowedGpus: 0, fromDefault: false });

    const k = { project: "default", gpuModelId: "h100", regionCode: fleet.region };
    await setProjectShare(o.ctx, o.slug, { ...k, shareGpus: 3 });
    const over = await setProjectShare(o.ctx, o.slug, { ...k, shareGpus: 5 }).catch((e) => e);
    expect(over).toBeInstanceOf(ValidationError);
    expect(over.fieldErrors.shareGpus).toEqual([QUOTA_FIELD_MESSAGES.shareAboveNominal]);
    const after = (await listOrgQuotas(viewer, o.slug)).find((r) => r.regionCode === fleet.region);
    expect(after?.shares).toEqual([expect.objectContaining({ projectSlug: "default", shareGpus: 3 })]);

    const member = await o.as("member");
    await expect(setProjectShare(member, o.slug, { ...k, shareGpus: 1 })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(
      setProjectShare(o.ctx, o.slug, { ...k, project: "nope", shareGpus: 1 }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await setProjectShare(o.ctx, o.slug, { ...k, shareGpus: "" });
    const none = await getDb().execute(sql`select 1 from project_quotas where org_id = ${o.org.id}`);
    expect(none.rows).toHaveLength(0);
  });

  it("another organization's quotas and projects are a 404", async () => {
    const { o } = await setup();
    const stranger = await newOrg("other");
    await expect(listOrgQuotas(stranger.ctx, o.slug)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      setProjectShare(stranger.ctx, o.slug, {
        project: "default",
        gpuModelId: "h100",
        regionCode: "x",
        shareGpus: 1,
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  // Issue 13: the project-share sum ran with no share too and read every active instance of every
  // organization (a launch's cost grew with the fleet). Each scan of instances the standing runs must be
  // bounded by the organization, or not run at all.
  it("the standing a launch reads scans only its own organization's instances, with or without a share", async () => {
    const { fleet, o } = await setup();
    const project = await getDb().execute<{ id: string }>(
      sql`select id from projects where org_id = ${o.org.id} and slug = 'default'`,
    );
    const k = {
      orgId: o.org.id,
      gpuModelId: "h100",
      regionCode: fleet.region,
      projectId: project.rows[0]?.id ?? "",
    };
    type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };
    const instanceScans = async () => {
      const res = await getDb().execute<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
        sql`explain (analyze, format json) ${admissionStandingSql(k)}`,
      );
      const scans: PlanNode[] = [];
      const walk = (n: PlanNode) => {
        if (n["Relation Name"] === "instances" && Number(n["Actual Loops"]) > 0) scans.push(n);
        for (const c of n.Plans ?? []) walk(c);
      };
      walk(res.rows[0]?.["QUERY PLAN"][0]?.Plan as PlanNode);
      return scans.map((n) => [n["Index Cond"], n["Recheck Cond"], n.Filter].filter(Boolean).join(" "));
    };
    const without = await instanceScans();
    expect(without.length).toBeGreaterThan(0);
    for (const cond of without) expect(cond).toMatch(/org_id/);
    await setProjectShare(o.ctx, o.slug, {
      project: "default",
      gpuModelId: "h100",
      regionCode: fleet.region,
      shareGpus: 2,
    });
    const withShare = await instanceScans();
    expect(withShare.length).toBeGreaterThan(without.length);
    for (const cond of withShare) expect(cond).toMatch(/org_id/);
  });
});

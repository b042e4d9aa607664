import { describe, expect, it } from "vitest";
import {
  deleteAutoShutdownPolicy,
  listAutoShutdownPolicies,
  setAutoShutdownPolicy,
} from "@/lib/autoshutdown";
import { NotFoundError } from "@/lib/core";
import { newBillingOrg, testClock } from "@/lib/metering/__tests__/fixtures";

const clock = () => testClock("2030-07-01T09:00:00Z");

describe("listAutoShutdownPolicies (the settings page's list)", () => {
  it("lists the organization's policies, organization-wide first, with project and GPU names", async () => {
    const org = await newBillingOrg(clock(), "aslist");
    await setAutoShutdownPolicy(org.ctx, org.slug, { project: "default", idleMinutesMax: 45 });
    await setAutoShutdownPolicy(org.ctx, org.slug, { idleMinutesMax: 60 });
    const rows = await listAutoShutdownPolicies(org.ctx, org.slug);
    expect(rows.map((r) => [r.projectName, r.policy.idleMinutesMax])).toEqual([
      [null, 60],
      ["Default", 45],
    ]);
    // Viewers read them too (the launch form shows the limits); another organization's member does not.
    const viewer = await org.as("viewer");
    expect(await listAutoShutdownPolicies(viewer, org.slug)).toHaveLength(2);
    const other = await newBillingOrg(clock(), "aslist-other");
    await expect(listAutoShutdownPolicies(other.ctx, org.slug)).rejects.toBeInstanceOf(NotFoundError);
    await deleteAutoShutdownPolicy(org.ctx, org.slug, rows[0]?.policy.id ?? "");
    expect(await listAutoShutdownPolicies(org.ctx, org.slug)).toHaveLength(1);
  });
});

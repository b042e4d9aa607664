import { describe, expect, it } from "vitest";
import { QUOTA_SIM, runQuotaSim } from "../bench/quota-sim";

describe("quota simulation (npm run bench -- quota-sim), a small stream", () => {
  it("borrowing uses more of the fleet than hard quotas and never overshoots a quota", async () => {
    const { borrowing, hard } = await runQuotaSim({
      ...QUOTA_SIM,
      cohorts: 2,
      orgsPerCohort: 3,
      horizonMinutes: 120,
      warmupMinutes: 30,
    });
    expect(borrowing.violations).toBe(0);
    expect(hard.violations).toBe(0);
    expect(hard.reclaimed).toBe(0);
    expect(borrowing.utilization).toBeGreaterThan(hard.utilization);
    expect(hard.utilization).toBeGreaterThan(0);
    expect(borrowing.utilization).toBeLessThanOrEqual(1);
    expect(borrowing.classes.find((c) => c.name === "small")?.admitted).toBeGreaterThan(0);
  }, 300_000);
});

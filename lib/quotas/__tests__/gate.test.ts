import { describe, expect, it } from "vitest";
import { type GateInput, type GateLevel, gateQueue } from "@/lib/quotas";

const G = 7;
function input(over: Partial<Omit<GateInput, "levels">> & { levels: Record<string, GateLevel> }): GateInput {
  const { levels, ...rest } = over;
  return {
    requests: [],
    orgs: new Map(),
    held: new Map(),
    projectShares: new Map(),
    budgetBlocked: new Map(),
    suspended: new Set(),
    holders: [],
    ...rest,
    levels: new Map(Object.entries(levels)),
  };
}
const lvl = (nominal: number, borrowingLimit = 0, lendingLimit: number | null = null): GateLevel => ({
  nominal: nominal * G,
  borrowingLimit: borrowingLimit * G,
  lendingLimit: lendingLimit === null ? null : lendingLimit * G,
});
const req = (id: string, orgId: string, gpus = 1) => ({
  id,
  orgId,
  projectId: `p-${orgId}`,
  modelId: "m",
  slices: gpus * G,
});

/** A 2-GPU instance of organization b. */
const holder = (id: string, priority: number, startedAt: number, borrowed = true, running = true) => ({
  id,
  orgId: "b",
  modelId: "m",
  slices: 2 * G,
  priority,
  startedAt,
  running,
  borrowed,
});

/** l lends (nominal 4); b holds 6 of its nominal 2 + borrowing 4: 4 borrowed. */
const lenderAndBorrower = () => ({
  orgs: new Map([
    ["l", { cohortId: "k", weight: 1 }],
    ["b", { cohortId: "k", weight: 1 }],
  ]),
  levels: { "l/m": lvl(4), "b/m": lvl(2, 4) },
  held: new Map([["b/m", 6 * G]]),
});

describe("quota gate", () => {
  it("gives idle capacity to the borrower with the lowest weighted share first", () => {
    // a, b and c share a cohort; c lends 4 and wants nothing. a already borrows 2 (holds 6 of 4), b holds 4 of 4.
    const orgs = new Map([
      ["a", { cohortId: "k", weight: 1 }],
      ["b", { cohortId: "k", weight: 1 }],
      ["c", { cohortId: "k", weight: 1 }],
    ]);
    const levels = { "a/m": lvl(4, 8), "b/m": lvl(4, 8), "c/m": lvl(6) };
    const held = new Map([
      ["a/m", 6 * G],
      ["b/m", 4 * G],
    ]);
    const requests = [req("a1", "a"), req("a2", "a"), req("b1", "b"), req("b2", "b"), req("b3", "b")];
    const out = gateQueue(input({ orgs, levels, held, requests }));
    // Pool 6 − borrowed 2 = 4 left: b (share 4/14) goes first until it passes a (6/14), then they alternate.
    expect(out.admitted).toEqual([
      { id: "b1", borrowed: true },
      { id: "b2", borrowed: true },
      { id: "a1", borrowed: true },
      { id: "b3", borrowed: true },
    ]);
    expect(out.reasons.get("a2")).toMatchObject({
      code: "over_nominal_nothing_to_borrow",
      params: { borrowable: 0 },
    });
  });

  it("weights scale the share: a weight-3 organization gets three times the borrowed capacity", () => {
    const orgs = new Map([
      ["a", { cohortId: "k", weight: 3 }],
      ["b", { cohortId: "k", weight: 1 }],
      ["c", { cohortId: "k", weight: 1 }],
    ]);
    const levels = { "a/m": lvl(0, 20), "b/m": lvl(0, 20), "c/m": lvl(8) };
    const requests = [
      ...Array.from({ length: 8 }, (_, i) => req(`a${i}`, "a")),
      ...Array.from({ length: 8 }, (_, i) => req(`b${i}`, "b")),
    ];
    const out = gateQueue(input({ orgs, levels, requests }));
    const count = (o: string) => out.admitted.filter((x) => x.id.startsWith(o)).length;
    expect([count("a"), count("b")]).toEqual([6, 2]);
  });

  it("reclaims borrowed work, lowest priority then youngest, when a lender's guaranteed demand needs it", () => {
    const { orgs, levels, held } = lenderAndBorrower();
    const holders = [
      holder("g", 0, 0, false),
      holder("old", 0, 1),
      holder("young", 0, 2),
      holder("low", -1, 0),
    ];
    const out = gateQueue(input({ orgs, levels, held, holders, requests: [req("l1", "l", 2)] }));
    expect(out.admitted).toEqual([{ id: "l1", borrowed: false }]);
    // Pool 4 − 2 = 2 left for 4 borrowed: 2 GPUs come back, the low-priority one.
    expect(out.reclaim).toEqual(["low"]);
  });

  it("holds a lender's guaranteed request back while the borrowed work cannot be reclaimed yet", () => {
    // b borrows 4 of l's 4 with instances still provisioning (not reclaimable); l asks for 2 of its nominal,
    // then 2 more. Admitting either would leave the cohort lending more than l leaves idle.
    const { orgs, levels, held } = lenderAndBorrower();
    const holders = [
      holder("p1", 0, 0, false),
      holder("p2", 0, 1, true, false),
      holder("p3", 0, 2, true, false),
    ];
    const out = gateQueue(
      input({ orgs, levels, held, holders, requests: [req("l1", "l", 2), req("l2", "l", 2)] }),
    );
    // Reclaiming p1 (the one running) gives 2 back: l1 fits, l2 waits for p2 or p3 to run and be reclaimed.
    expect(out.reclaim).toEqual(["p1"]);
    expect(out.admitted).toEqual([{ id: "l1", borrowed: false }]);
    expect(out.reasons.has("l2")).toBe(false);
  });

  it("gives one reason to each request it holds back", () => {
    const orgs = new Map([
      ["o", { cohortId: null, weight: 1 }],
      ["s", { cohortId: null, weight: 1 }],
    ]);
    const levels = { "o/m": lvl(4), "s/m": lvl(4) };
    const out = gateQueue(
      input({
        orgs,
        levels,
        requests: [
          req("susp", "s"),
          req("budget", "o"),
          { ...req("share", "o"), projectId: "q" },
          { ...req("big", "o", 8), projectId: "r" },
        ],
        suspended: new Set(["s"]),
        budgetBlocked: new Map([["o/p-o", "Monthly"]]),
        projectShares: new Map([["q/m", { share: 0, held: 0 }]]),
      }),
    );
    expect(Object.fromEntries([...out.reasons].map(([k, v]) => [k, v.code]))).toEqual({
      susp: "org_suspended",
      budget: "budget_blocked",
      share: "project_share_used",
      big: "over_nominal_nothing_to_borrow",
    });
    expect(out.admitted).toEqual([]);
  });
});

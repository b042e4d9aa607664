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

  it("reclaims what is marked borrowed before unmarked work of lower priority, youngest first among equals", () => {
    const { orgs, levels, held } = lenderAndBorrower();
    // b holds 6 of its nominal 2: g (unmarked, priority −1) and two marked borrowed; l needs 2 GPUs back.
    const holders = [holder("g", -1, 0, false), holder("m1", 0, 1), holder("m2", 0, 2)];
    const out = gateQueue(input({ orgs, levels, held, holders, requests: [req("l1", "l", 2)] }));
    expect(out.reclaim).toEqual(["m2"]);
  });

  it("never reclaims work of an organization within its nominal, whatever its priority", () => {
    // b holds 6 of 2 (nothing marked, e.g. after a cut); c holds 2 of its 4 at the lowest priority. l takes its
    // nominal back: 2 GPUs must return, and they come from b, the one over nominal.
    const orgs = new Map(["l", "b", "c"].map((o) => [o, { cohortId: "k", weight: 1 }]));
    const levels = { "l/m": lvl(4), "b/m": lvl(2, 4), "c/m": lvl(4) };
    const held = new Map([
      ["b/m", 6 * G],
      ["c/m", 2 * G],
    ]);
    const holders = [
      { ...holder("c1", -5, 0, false), orgId: "c" },
      holder("b1", 0, 1, false),
      holder("b2", 0, 2, false),
      holder("b3", 0, 3, false),
    ];
    const out = gateQueue(input({ orgs, levels, held, holders, requests: [req("l1", "l", 4)] }));
    expect(out.reclaim).toEqual(["b3"]);
  });

  it("reclaims an organization's running work above its lowered limit, outside a cohort too, in the reclaim order", () => {
    // The operator cut b (in no cohort) to 3 GPUs while it runs 8: 5 must go, marked borrowed first, then the
    // lowest priority, then the youngest; the provisioning one cannot be reclaimed yet and is skipped.
    const holders = [
      holder("old", 0, 1, false),
      holder("young", 0, 5, false),
      holder("low", -1, 2, false),
      holder("starting", -9, 6, false, false),
    ];
    const out = gateQueue(input({ levels: { "b/m": lvl(3) }, held: new Map([["b/m", 8 * G]]), holders }));
    expect(out.reclaimOverLimit).toEqual(["low", "young", "old"]);
    expect(out.reclaim).toEqual([]);
    // Within its limit nothing is taken, whatever it runs.
    const fits = gateQueue(input({ levels: { "b/m": lvl(8) }, held: new Map([["b/m", 8 * G]]), holders }));
    expect(fits.reclaimOverLimit).toEqual([]);
  });

  it("in a cohort, the lowered limit is nominal plus borrowing limit: the part above nominal stays borrowed", () => {
    // b: nominal cut to 2 with borrowing 2 while it runs 6; l lends 4 idle. Only 2 GPUs (b3) are over 2 + 2.
    const { orgs } = lenderAndBorrower();
    const holders = [holder("b1", 0, 1, false), holder("b2", 0, 2, false), holder("b3", 0, 3, false)];
    const out = gateQueue(
      input({ orgs, levels: { "l/m": lvl(4), "b/m": lvl(2, 2) }, held: new Map([["b/m", 6 * G]]), holders }),
    );
    expect(out.reclaimOverLimit).toEqual(["b3"]);
    expect(out.reclaim).toEqual([]);
  });

  it("orders borrowers by their dominant share: the largest over the region's GPU models", () => {
    // Both borrow model n from c. Cohort nominal is 8 GPUs of n and 8 of m; a holds n, b holds its own m.
    const orgs = new Map(["a", "b", "c"].map((o) => [o, { cohortId: "k", weight: 1 }]));
    const levels = {
      "a/n": lvl(0, 8),
      "b/n": lvl(0, 8),
      "c/n": lvl(8),
      "a/m": lvl(0),
      "b/m": lvl(4),
      "c/m": lvl(4),
    };
    const requests = [
      { ...req("a1", "a"), modelId: "n" },
      { ...req("b1", "b"), modelId: "n" },
    ];
    const order = (aOnN: number, bOnM: number) => {
      const held = new Map([
        ["a/n", aOnN * G],
        ["b/m", bOnM * G],
      ]);
      const holders = [
        { ...holder("an", 0, 0), orgId: "a", modelId: "n", slices: aOnN * G },
        { ...holder("bm", 0, 0, false), modelId: "m", slices: bOnM * G },
      ];
      return gateQueue(input({ orgs, levels, held, holders, requests })).admitted.map((x) => x.id);
    };
    // a 4/8 on n vs b 2/8 on m: b first (looking at m only would put a first).
    expect(order(4, 2)).toEqual(["b1", "a1"]);
    // a 2/8 on n vs b 4/8 on m: a first (looking at the requested n only would put b first).
    expect(order(2, 4)).toEqual(["a1", "b1"]);
  });

  it("says over the borrowing limit when the cohort could lend but the organization may not take more", () => {
    const { orgs, levels, held } = lenderAndBorrower();
    const out = gateQueue(input({ orgs, levels, held, requests: [req("b1", "b", 1)] }));
    expect(out.reasons.get("b1")).toMatchObject({
      code: "over_borrowing_limit",
      params: { nominal: 2, borrowingLimit: 4, inUse: 6, requested: 1 },
    });
  });

  it("lets an organization outside any cohort borrow nothing, whatever its borrowing limit", () => {
    // It left its cohort with a borrowing limit still set: beyond nominal it waits.
    const orgs = new Map([["x", { cohortId: null, weight: 1 }]]);
    const out = gateQueue(input({ orgs, levels: { "x/m": lvl(1, 4) }, requests: [req("x1", "x", 2)] }));
    expect(out.admitted).toEqual([]);
    expect(out.reasons.get("x1")).toMatchObject({
      code: "over_nominal_nothing_to_borrow",
      params: { borrowingLimit: 0 },
    });
  });

  it("clears borrowed marks of an organization back at (or under) its nominal, not of one still over it", () => {
    const orgs = new Map(["a", "b"].map((o) => [o, { cohortId: "k", weight: 1 }]));
    const levels = { "a/m": lvl(2, 4), "b/m": lvl(2, 4) };
    const held = new Map([
      ["a/m", 2 * G],
      ["b/m", 3 * G],
    ]);
    expect(gateQueue(input({ orgs, levels, held })).withinNominal).toEqual(["a/m"]);
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

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type PHolder, type PNode, type PRequest, placementSteps, planPlacements } from "../placement";

const NOW = 1_000_000;

/** A random fleet (some GPUs in MIG mode, some partly used), holders with release times, and a queue. */
const world = fc
  .record({
    nodes: fc.array(
      fc.record({
        model: fc.constantFrom("h100", "l4"),
        gpus: fc.array(fc.record({ mig: fc.boolean(), used: fc.nat(7) }), {
          minLength: 1,
          maxLength: 8,
        }),
      }),
      { minLength: 1, maxLength: 25 },
    ),
    queue: fc.array(
      fc.record({
        model: fc.constantFrom("h100", "l4"),
        kind: fc.constantFrom(1, 2, 4, 8, 0),
        slices: fc.constantFrom(1, 2, 3),
        spot: fc.boolean(),
        runtime: fc.option(fc.integer({ min: 1, max: 600 }), { nil: null }),
      }),
      { maxLength: 80 },
    ),
    releases: fc.array(fc.option(fc.integer({ min: 1, max: 900 }), { nil: null }), { maxLength: 25 }),
  })
  .map(({ nodes: raw, queue: q, releases }) => {
    const holders: PHolder[] = [];
    const nodes: PNode[] = raw.map((n, i) => {
      const id = `n${i}`;
      const gpus = n.gpus.map((g, k) => {
        // Whole GPUs are all or nothing; MIG GPUs hold any number of slices.
        const used = g.mig ? g.used : g.used > 3 ? 7 : 0;
        return { id: `${id}g${k}`, mig: g.mig, used };
      });
      const alloc = gpus.filter((g) => g.used > 0).map((g) => ({ gpuId: g.id, slices: g.used }));
      if (alloc.length > 0) {
        const release = releases[i % Math.max(1, releases.length)] ?? null;
        holders.push({
          id: `h${i}`,
          nodeId: id,
          alloc,
          releaseAt: release === null ? null : NOW + release * 60_000,
          reclaimable: i % 3 === 0,
          preempting: false,
          startedAt: NOW - i * 1000,
        });
      }
      return { id, name: `node-${String(i).padStart(3, "0")}`, modelId: n.model, gpus };
    });
    const queue: PRequest[] = q
      .map((r, i) => ({
        id: `r${i}`,
        modelId: r.model,
        gpuCount: r.kind === 0 ? 1 : r.kind,
        slicesPerGpu: r.kind === 0 ? r.slices : 7,
        spot: r.spot,
        endIfStartedNow: r.runtime === null ? null : NOW + r.runtime * 60_000,
      }))
      .sort((a, b) => a.modelId.localeCompare(b.modelId));
    return { nodes, holders, queue };
  });

/** A world as the planner's input; spot reclaim mutates the holders it picks, so each call gets its own copies. */
const planInput = (w: { nodes: PNode[]; holders: PHolder[]; queue: PRequest[] }) => ({
  nodes: w.nodes,
  holders: w.holders.map((h) => ({ ...h })),
  queue: w.queue,
  now: NOW,
  spotNoticeMs: 120_000,
});

describe("planPlacements with the fit index", () => {
  it("makes exactly the decisions of the full scan (best fit, name ties, backfill, spot reclaim)", () => {
    fc.assert(
      fc.property(world, (w) => {
        const input = () => planInput(w);
        const linear = planPlacements(input(), { scan: "linear" });
        const indexed = planPlacements(input());
        expect(indexed).toEqual(linear);
      }),
      { numRuns: 300 },
    );
  });

  it("yields each placement as it is decided, in order, and none is taken back by the decisions", () => {
    fc.assert(
      fc.property(world, (w) => {
        const input = () => planInput(w);
        // The scheduler writes what was yielded before the plan ends: it must be exactly what was decided.
        const steps = placementSteps(input());
        const yielded = [];
        let step = steps.next();
        for (; !step.done; step = steps.next()) yielded.push(step.value);
        expect(yielded).toEqual(step.value.placements);
        expect(step.value).toEqual(planPlacements(input()));
      }),
      { numRuns: 200 },
    );
  });

  it("places on the node left with the fewest free GPUs, the first by name among equals", () => {
    const gpus = (node: string, free: number) =>
      Array.from({ length: 8 }, (_, k) => ({ id: `${node}g${k}`, mig: false, used: k < 8 - free ? 7 : 0 }));
    const nodes: PNode[] = [
      { id: "a", name: "a", modelId: "h100", gpus: gpus("a", 8) },
      { id: "b", name: "b", modelId: "h100", gpus: gpus("b", 3) },
      { id: "c", name: "c", modelId: "h100", gpus: gpus("c", 2) },
      { id: "d", name: "d", modelId: "h100", gpus: gpus("d", 2) },
    ];
    const req = (id: string, gpuCount: number): PRequest => ({
      id,
      modelId: "h100",
      gpuCount,
      slicesPerGpu: 7,
      spot: false,
      endIfStartedNow: null,
    });
    const d = planPlacements({
      nodes,
      holders: [],
      queue: [req("two", 2), req("three", 3), req("other-two", 2)],
      now: NOW,
      spotNoticeMs: 120_000,
    });
    expect(d.placements.map((p) => [p.requestId, p.nodeId])).toEqual([
      ["two", "c"],
      ["three", "b"],
      ["other-two", "d"],
    ]);
  });
});

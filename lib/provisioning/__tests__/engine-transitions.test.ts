import { describe, expect, it } from "vitest";
import { decideFromWorkload } from "@/lib/provisioning/engine-transitions";
import type { WorkloadStatus } from "@/lib/provisioning/providers";
import type { Instance } from "@/lib/provisioning/types";

const now = new Date("2026-12-02T06:00:00Z");
const inst = (over: Partial<Instance>) =>
  ({
    id: "i1",
    orgId: "o1",
    state: "provisioning",
    kind: "container",
    exposedPort: null,
    ...over,
  }) as Instance;
const running = (connection: Record<string, string> | null): WorkloadStatus => ({
  ref: "42",
  phase: "running",
  reason: null,
  nodeName: "gpu-a1.c",
  gpuIndexes: [0],
  expectedStart: null,
  queuePosition: null,
  connection,
});

describe("engine transitions: when a running workload is up", () => {
  it("a container without a port is up as soon as it runs", () => {
    expect(decideFromWorkload(inst({}), running(null), now, new Map())?.steps[0]?.to).toBe("running");
  });

  it("a container serving a port waits for the address the job reported, then keeps it", () => {
    const serving = inst({ exposedPort: 8000 });
    expect(decideFromWorkload(serving, running(null), now, new Map())).toBeNull();
    const up = decideFromWorkload(serving, running({ endpoint: "http://127.0.0.1:40001" }), now, new Map());
    expect(up?.steps[0]).toMatchObject({
      to: "running",
      patch: { connection: { endpoint: "http://127.0.0.1:40001" } },
    });
  });
});

describe("engine transitions: when a run began", () => {
  const at = (s: number) => new Date(now.getTime() + s * 1000);
  const startedAt = (st: WorkloadStatus, over: Partial<Instance> = {}) =>
    decideFromWorkload(inst({ queuedAt: at(-60), ...over }), st, now, new Map())?.steps[0]?.patch?.startedAt;

  it("is the engine's start time when a worker pass notices the job late (its first log lines are this run's)", () => {
    expect(startedAt({ ...running(null), startedAt: at(-20) })).toEqual(at(-20));
  });

  it("is now when the engine says nothing, or a time in the future", () => {
    expect(startedAt(running(null))).toEqual(now);
    expect(startedAt({ ...running(null), startedAt: at(5) })).toEqual(now);
  });

  it("is never before the run was queued or the previous run stopped (whole-second engine clocks)", () => {
    expect(startedAt({ ...running(null), startedAt: at(-90) })).toEqual(at(-60));
    expect(startedAt({ ...running(null), startedAt: at(-50) }, { stoppedAt: at(-30) })).toEqual(at(-30));
  });
});

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseNvidiaSmi, toSamples } from "../nvidia-smi";
import {
  gpuTypeOf,
  gresTypeFor,
  nodeStatusOf,
  parseGres,
  parseJobGresIdx,
  phaseOf,
  physicalGpuOfDevice,
} from "../parse";

const recorded = (name: string) =>
  fs.readFileSync(
    path.resolve(import.meta.dirname, "../../../../../test/slurm/recorded", `${name}.csv`),
    "utf8",
  );
const at = new Date("2030-01-01T00:00:00Z");

describe("nvidia-smi parser on recorded outputs", () => {
  it("H100 SXM: 8 boards; a 2-GPU job on IDX 2-3 gets its two boards as GPUs 0 and 1", () => {
    const r = parseNvidiaSmi(recorded("h100-sxm-8x"));
    expect(r).toHaveLength(8);
    expect(r[0]).toEqual({
      index: 0,
      name: "NVIDIA H100 80GB HBM3",
      utilizationPct: 97,
      memoryUsedMib: 71342,
      memoryTotalMib: 81559,
      powerWatts: 658.21,
      temperatureC: 67,
    });
    const s = toSamples(r, at, { hostIndexes: [2, 3], gpuCount: 2 });
    expect(s.map((x) => [x.gpuIndex, x.utilizationPct, x.memoryUsedGib, x.powerWatts])).toEqual([
      [0, 98, 69.67, 671.02],
      [1, 95, 69.66, 640.55],
    ]);
  });

  it("H200: memory in GiB from MiB", () => {
    const s = toSamples(parseNvidiaSmi(recorded("h200-sxm-8x")), at, { hostIndexes: null, gpuCount: 8 });
    expect(s).toHaveLength(8);
    expect(s[5]).toMatchObject({ utilizationPct: 92, memoryUsedGib: 125.91, temperatureC: 64 });
  });

  it("A100 in MIG mode: utilization is [N/A], so no sample (zero would look idle to auto-shutdown)", () => {
    const r = parseNvidiaSmi(recorded("a100-80gb-mig"));
    expect(r.map((x) => [x.utilizationPct, x.memoryUsedMib, x.powerWatts])).toEqual([
      [null, 20313, 187.34],
      [null, 10247, 121.09],
    ]);
    expect(toSamples(r, at, { hostIndexes: null, gpuCount: 1 })).toEqual([]);
  });

  it("refuses a line with the wrong number of fields", () => {
    expect(() => parseNvidiaSmi("0, NVIDIA H100, 5\n")).toThrow(/3 fields, expected 7/);
  });
});

describe("Slurm output parsing", () => {
  it("GRES strings, MIG profiles as GRES types, and the board each MIG device sits on", () => {
    const g = parseGres("gpu:a100_3g.40gb:2,gpu:a100_1g.10gb:3(S:0)");
    expect(g).toEqual([
      { type: "a100_3g.40gb", count: 2 },
      { type: "a100_1g.10gb", count: 3 },
    ]);
    const map = { a100: "a100-80gb" };
    expect(gpuTypeOf("a100_1g.10gb", map)).toEqual({ model: "a100-80gb", migProfile: "1g.10gb", slices: 1 });
    expect(gpuTypeOf("h100", {})).toEqual({ model: "h100", migProfile: null, slices: 7 });
    expect(gresTypeFor("a100-80gb", "3g.40gb", map)).toBe("a100_3g.40gb");
    expect(gresTypeFor("h100", null, map)).toBe("h100");
    expect(physicalGpuOfDevice(g, map)).toEqual([0, 0, 0, 1, 1]);
    expect(physicalGpuOfDevice(parseGres("gpu:h100:4"), {})).toEqual([0, 1, 2, 3]);
  });

  it("node states and job states", () => {
    expect(
      ["idle", "mixed", "allocated", "drained", "draining", "down*", "idle*", "down"].map(nodeStatusOf),
    ).toEqual(["active", "active", "active", "draining", "draining", "down", "down", "down"]);
    expect(
      [
        "PENDING",
        "RUNNING",
        "COMPLETED",
        "TIMEOUT",
        "PREEMPTED",
        "NODE_FAIL",
        "CANCELLED",
        "OUT_OF_MEMORY",
      ].map(phaseOf),
    ).toEqual([
      "pending",
      "running",
      "completed",
      "timeout",
      "preempted",
      "node_failed",
      "cancelled",
      "failed",
    ]);
  });

  it("GRES device indexes of running jobs from scontrol -d -o show job", () => {
    const text =
      "JobId=12 JobName=forja-x JobState=RUNNING Nodes=n1 CPU_IDs=0 Mem=0 GRES=gpu:h100:4(IDX:0-1,4,6) Partition=a\n" +
      "JobId=13 JobName=forja-y JobState=PENDING Partition=a\n";
    expect([...parseJobGresIdx(text)]).toEqual([["12", { node: "n1", idx: [0, 1, 4, 6] }]]);
  });
});

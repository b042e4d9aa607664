import { describe, expect, it } from "vitest";
import { AVERAGE_KEY, instanceChartSeries } from "../instance-series";

const labels = { gpu: (i: number) => `GPU ${i}`, average: "Average" };
const pts = (v: number) => [{ t: 0, v }];

describe("instanceChartSeries", () => {
  const data = {
    gpus: [0, 1, 2].map((gpuIndex) => ({ gpuIndex, points: pts(gpuIndex * 10) })),
    average: pts(10),
  };

  it("shows only the average by default", () => {
    expect(instanceChartSeries(data, false, labels).map((s) => s.key)).toEqual([AVERAGE_KEY]);
  });

  it("shows every GPU, the last one included, plus the average when per GPU is asked for", () => {
    const out = instanceChartSeries(data, true, labels);
    expect(out.map((s) => s.label)).toEqual(["GPU 0", "GPU 1", "GPU 2", "Average"]);
    expect(out[2]?.points).toEqual(pts(20));
  });

  it("names a single GPU as itself instead of an average of one", () => {
    const one = { gpus: [{ gpuIndex: 0, points: pts(5) }], average: pts(5) };
    expect(instanceChartSeries(one, false, labels)).toEqual([
      { key: "gpu0", label: "GPU 0", points: pts(5) },
    ]);
    expect(instanceChartSeries(one, true, labels)).toHaveLength(1);
  });
});

import type { ChartSeries, SeriesPoint } from "./series";

/** The part of the metrics API response the instance charts draw. */
export type InstanceSeriesData = {
  gpus: Array<{ gpuIndex: number; points: SeriesPoint[] }>;
  average: SeriesPoint[];
};

export type InstanceSeriesLabels = { gpu: (index: number) => string; average: string };

export const AVERAGE_KEY = "avg";

/**
 * Chart series for one metric: the average alone, or every GPU plus the average on top. A single-GPU
 * instance has nothing to average, so it shows its one GPU under its own name.
 */
export function instanceChartSeries(
  data: InstanceSeriesData,
  perGpu: boolean,
  labels: InstanceSeriesLabels,
): ChartSeries[] {
  if (data.gpus.length === 1) {
    const [only] = data.gpus;
    return only ? [{ key: "gpu0", label: labels.gpu(only.gpuIndex), points: only.points }] : [];
  }
  const average: ChartSeries = { key: AVERAGE_KEY, label: labels.average, points: data.average };
  if (!perGpu) return [average];
  return [
    ...data.gpus.map((g) => ({ key: `gpu${g.gpuIndex}`, label: labels.gpu(g.gpuIndex), points: g.points })),
    average,
  ];
}

export { ChartEmpty } from "./chart-empty";
export { ChartSkeleton } from "./chart-skeleton";
export { RangeSelector } from "./range-selector";
export { CHART_RANGES, type ChartRange, isShortRange, parseRange } from "./ranges";
export { type ChartRow, type ChartSeries, type SeriesPoint, summarize, toChartRows } from "./series";
export { TimeSeriesChart, type TimeSeriesChartProps } from "./time-series-chart";
export { UrlSegmented } from "./url-segmented";

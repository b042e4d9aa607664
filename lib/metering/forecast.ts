import type { Month } from "./period";
import type { ProjectSpendRow } from "./spend-sql";

export type Forecast = {
  period: string;
  /** Ledger this month plus the estimated usage since the last metered hour. */
  actualUsd: number;
  meteredUsd: number;
  accruedUsd: number;
  forecastUsd: number;
  burnPerHourUsd: number;
  trendPerHourUsd: number;
  remainingHours: number;
  /** How the forecast was made, for the reader (English; the console formats its own from the parts). */
  method: string;
};

export const FORECAST_METHOD =
  "Spend so far this month (metered hours plus an estimate for the current hour) + the higher of the current " +
  "burn rate (running instances at their current price, stopped disks, active reservation commitments) and " +
  "the average hourly spend of the last 7 days, times the hours left in the month (UTC).";

/** Combine per-project spend rows (already filtered to a budget's scope) into a month-end forecast. */
export function forecastOf(rows: ProjectSpendRow[], month: Month, now: Date): Forecast {
  let metered = 0;
  let accrued = 0;
  let burn = 0;
  let trend = 0;
  for (const r of rows) {
    metered += r.ledgerMtd;
    accrued += r.accrued;
    burn += r.burnPerHour;
    trend += r.trendUsd / Math.max(1, r.trendHours);
  }
  const remainingHours = Math.max(0, (month.end.getTime() - now.getTime()) / 3_600_000);
  const actual = metered + accrued;
  return {
    period: month.period,
    actualUsd: round2(actual),
    meteredUsd: round2(metered),
    accruedUsd: round2(accrued),
    forecastUsd: round2(actual + Math.max(burn, trend) * remainingHours),
    burnPerHourUsd: round4(burn),
    trendPerHourUsd: round4(trend),
    remainingHours: Math.round(remainingHours * 100) / 100,
    method: FORECAST_METHOD,
  };
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

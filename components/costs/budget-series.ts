/**
 * The budget chart's points: cumulative actual spend at the end of each day so far (from the ledger's daily
 * sums) and now (with the unmetered estimate), the forecast as a straight line from now to the month end, and
 * the budget as a flat line. Pure, so the picture and its table read the same numbers.
 */
export type BudgetPoint = { t: number; actual: number | null; forecast: number | null; budget: number };

const DAY = 86_400_000;
const round2 = (n: number) => Math.round(n * 100) / 100;

export function budgetSeries(input: {
  monthStart: Date;
  monthEnd: Date;
  now: Date;
  /** Ledger spend per UTC day ("YYYY-MM-DD"). */
  daily: Record<string, number>;
  actualUsd: number;
  forecastUsd: number;
  amountUsd: number;
}): BudgetPoint[] {
  const { monthStart, monthEnd, now, daily, actualUsd, forecastUsd, amountUsd } = input;
  const nowMs = Math.min(Math.max(now.getTime(), monthStart.getTime()), monthEnd.getTime());
  const points: BudgetPoint[] = [{ t: monthStart.getTime(), actual: 0, forecast: null, budget: amountUsd }];
  const hoursLeft = (monthEnd.getTime() - nowMs) / 3_600_000;
  const rate = hoursLeft > 0 ? (forecastUsd - actualUsd) / hoursLeft : 0;
  let cumulative = 0;
  for (let t = monthStart.getTime(); t < monthEnd.getTime(); t += DAY) {
    const end = t + DAY;
    if (end <= nowMs) {
      cumulative += daily[new Date(t).toISOString().slice(0, 10)] ?? 0;
      points.push({ t: end, actual: round2(cumulative), forecast: null, budget: amountUsd });
    } else {
      if (t < nowMs || (t === nowMs && points.at(-1)?.t !== nowMs)) {
        points.push({ t: nowMs, actual: round2(actualUsd), forecast: round2(actualUsd), budget: amountUsd });
      }
      const at = Math.min(end, monthEnd.getTime());
      const value = actualUsd + rate * ((at - nowMs) / 3_600_000);
      points.push({ t: at, actual: null, forecast: round2(value), budget: amountUsd });
    }
  }
  const last = points.at(-1);
  if (last && last.t === nowMs && last.forecast === null) last.forecast = last.actual;
  return points;
}

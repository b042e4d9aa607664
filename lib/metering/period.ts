/** Budgets and bills run on UTC calendar months ("YYYY-MM"). */
export type Month = { period: string; start: Date; end: Date };

export function monthOf(at: Date): Month {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  return {
    period: `${y}-${String(m + 1).padStart(2, "0")}`,
    start: new Date(Date.UTC(y, m, 1)),
    end: new Date(Date.UTC(y, m + 1, 1)),
  };
}

export function parseMonth(period: string): Month {
  const match = /^(\d{4})-(\d{2})$/.exec(period);
  if (!match) throw new Error(`Not a month: ${period}`);
  return monthOf(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)));
}

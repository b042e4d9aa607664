import { COST_GROUPS, type CostGroup, costRangeSchema } from "@/lib/metering";

type Search = Record<string, string | string[] | undefined>;

export type UsageSearch = {
  /** As typed in the URL: `from` and `to` are calendar days (UTC), both included. */
  from: string;
  to: string;
  group: CostGroup;
  month: string;
};

export type ParsedUsageSearch = {
  values: UsageSearch;
  /** The range for the library: `to` is exclusive (the day after the last one shown). Null when invalid. */
  range: { from: Date; to: Date } | null;
  /** Catalog keys (Costs.usage.errors.*) per field, for the range form. */
  errors: Partial<Record<"from" | "to", string>>;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function one(v: string | string[] | undefined): string {
  return ((Array.isArray(v) ? v[0] : v) ?? "").trim();
}

export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function dayStart(s: string): Date | null {
  if (!DAY.test(s)) return null;
  const d = new Date(`${s}T00:00:00Z`);
  // "2026-02-31" parses to March; a day that does not round-trip is not a real date.
  return Number.isNaN(d.getTime()) || isoDay(d) !== s ? null : d;
}

/**
 * The cost explorer's URL: a day range (default: this month so far), a grouping and the energy month. A
 * mistyped grouping or month falls back to the default; a bad range is reported at the field instead of
 * silently showing some other period.
 */
export function parseUsageSearch(sp: Search, now: Date): ParsedUsageSearch {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const rawGroup = one(sp.group);
  const group = (COST_GROUPS as readonly string[]).includes(rawGroup) ? (rawGroup as CostGroup) : "project";
  const rawMonth = one(sp.month);
  const month = MONTH.test(rawMonth) ? rawMonth : isoDay(now).slice(0, 7);
  const values = {
    from: one(sp.from) || isoDay(monthStart),
    to: one(sp.to) || isoDay(now),
    group,
    month,
  };
  const errors: ParsedUsageSearch["errors"] = {};
  const from = dayStart(values.from);
  const last = dayStart(values.to);
  if (!from) errors.from = "badDate";
  if (!last) errors.to = "badDate";
  if (!from || !last) return { values, range: null, errors };
  const to = new Date(last.getTime() + 86_400_000);
  // The library's schema is the rule (order, maximum length); this only maps its verdict to a field.
  const parsed = costRangeSchema.safeParse({ from, to });
  if (!parsed.success) {
    errors.to = to.getTime() <= from.getTime() ? "order" : "tooLong";
    return { values, range: null, errors };
  }
  return { values, range: { from: parsed.data.from, to: parsed.data.to }, errors };
}

/** Every day of a range (exclusive end), so days without spend still get a (zero) bar. */
export function daysOf(range: { from: Date; to: Date }): string[] {
  const out: string[] = [];
  for (let t = range.from.getTime(); t < range.to.getTime(); t += 86_400_000) out.push(isoDay(new Date(t)));
  return out;
}

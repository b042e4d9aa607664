import { type BillKind, billKindOf, floorHour, floorSecond, HOUR_MS } from "./rates";

export type MeteredInstance = {
  id: string;
  orgId: string;
  projectId: string;
  instanceTypeId: string;
  regionCode: string;
  gpuModelId: string;
  gpuCount: number;
  slicesPerGpu: number;
  pricingModel: "on_demand" | "spot" | "reserved_1m" | "reserved_1y";
  diskGib: number;
};

/** A state the instance entered at `at` (ms); the list is in time order and may start before the window. */
export type StateChange = { at: number; state: string };

/** A stretch of one billable kind inside one clock hour at one price (the ledger's unit). */
export type Segment = { instance: MeteredInstance; kind: BillKind; start: number; end: number };

/**
 * Billable segments of one instance in [from, to): each state lasts until the next change (times floored to
 * whole seconds), adjacent stretches of the same kind are joined (running → stopping is one compute stretch),
 * and every stretch is cut at clock hours and at the given price change points, so a segment always starts
 * at the same instant however often the window is metered — which is what makes the ledger keys stable.
 */
export function billableSegments(
  inst: MeteredInstance,
  changes: StateChange[],
  from: number,
  to: number,
  priceCuts: number[],
): Segment[] {
  const stretches: Array<{ kind: BillKind; start: number; end: number }> = [];
  for (const [i, c] of changes.entries()) {
    const kind = billKindOf(c.state);
    const next = changes[i + 1];
    const start = Math.max(floorSecond(c.at), from);
    const end = Math.min(next ? floorSecond(next.at) : to, to);
    if (!kind || end <= start) continue;
    const last = stretches.at(-1);
    if (last && last.kind === kind && last.end === start) last.end = end;
    else stretches.push({ kind, start, end });
  }
  const out: Segment[] = [];
  for (const s of stretches) {
    const cuts = s.kind === "compute" ? priceCuts.filter((p) => p > s.start && p < s.end) : [];
    for (let h = floorHour(s.start) + HOUR_MS; h < s.end; h += HOUR_MS) {
      if (h > s.start) cuts.push(h);
    }
    const points = [...new Set(cuts)].sort((a, b) => a - b);
    let start = s.start;
    for (const p of [...points, s.end]) {
      if (p > start) out.push({ instance: inst, kind: s.kind, start, end: p });
      start = p;
    }
  }
  return out;
}

import { HOUR_MS, SLICES_PER_GPU } from "./rates";
import type { Segment } from "./segments";

export type MeteredReservation = {
  id: string;
  orgId: string;
  gpuModelId: string;
  regionCode: string;
  gpuCount: number;
  term: "reserved_1m" | "reserved_1y";
  startsAt: number;
  endsAt: number;
  /** Locked at purchase: the catalog's term price per GPU-hour when the reservation started. */
  usdPerGpuHour: number;
};

/** A compute or storage segment, or the part of one a reservation covered. */
export type Piece = Segment & { reservation: MeteredReservation | null };
/** Reserved GPU time nobody used in one clock hour: billed anyway, as a commitment row. */
export type Unused = { reservation: MeteredReservation; start: number; end: number; sliceSeconds: number };

const slicesOf = (s: Segment) => s.instance.gpuCount * s.instance.slicesPerGpu;

/**
 * Reservations cover matching usage first (same GPU model and region, on-demand or reserved, never spot),
 * pooled per clock hour like cloud reserved capacity: a reservation of N GPUs covers N × 3600 GPU-seconds of
 * the hour, whichever instances used them. Instances launched as reserved are covered before on-demand ones,
 * then earlier segments first; longer terms are drawn before shorter ones. A covered segment is split in time
 * (covered seconds first) so each piece keeps a single price. What is left of the hour is returned as unused.
 */
export function applyReservations(
  segments: Segment[],
  reservations: MeteredReservation[],
  from: number,
  to: number,
): { pieces: Piece[]; unused: Unused[] } {
  const pieces: Piece[] = [];
  const unused: Unused[] = [];
  const handled = new Set<Segment>();
  const order = [...reservations].sort(
    (a, b) =>
      Number(b.term === "reserved_1y") - Number(a.term === "reserved_1y") ||
      a.startsAt - b.startsAt ||
      a.id.localeCompare(b.id),
  );
  for (let h = from; h < to; h += HOUR_MS) {
    const active = order
      .map((r) => {
        const start = Math.max(h, r.startsAt);
        const end = Math.min(h + HOUR_MS, r.endsAt, to);
        return { r, start, end, left: Math.max(0, (end - start) / 1000) * r.gpuCount * SLICES_PER_GPU };
      })
      .filter((a) => a.end > a.start);
    if (active.length === 0) continue;
    const eligible = segments
      .filter(
        (s) =>
          s.kind === "compute" &&
          s.start >= h &&
          s.start < h + HOUR_MS &&
          s.instance.pricingModel !== "spot" &&
          active.some(
            (a) => a.r.gpuModelId === s.instance.gpuModelId && a.r.regionCode === s.instance.regionCode,
          ),
      )
      .sort(
        (a, b) =>
          Number(b.instance.pricingModel !== "on_demand") - Number(a.instance.pricingModel !== "on_demand") ||
          a.start - b.start ||
          a.instance.id.localeCompare(b.instance.id),
      );
    for (const seg of eligible) {
      handled.add(seg);
      const perSecond = slicesOf(seg);
      let start = seg.start;
      for (const a of active) {
        if (start >= seg.end) break;
        if (a.r.gpuModelId !== seg.instance.gpuModelId || a.r.regionCode !== seg.instance.regionCode)
          continue;
        const seconds = Math.min((seg.end - start) / 1000, Math.floor(a.left / perSecond));
        if (seconds <= 0) continue;
        pieces.push({ ...seg, start, end: start + seconds * 1000, reservation: a.r });
        a.left -= seconds * perSecond;
        start += seconds * 1000;
      }
      if (start < seg.end) pieces.push({ ...seg, start, reservation: null });
    }
    for (const a of active) {
      if (a.left > 0) unused.push({ reservation: a.r, start: a.start, end: a.end, sliceSeconds: a.left });
    }
  }
  for (const seg of segments) if (!handled.has(seg)) pieces.push({ ...seg, reservation: null });
  return { pieces, unused };
}

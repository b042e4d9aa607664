import type { Piece, Unused } from "./coverage";
import type { PriceBook } from "./price-book";
import { money, SLICES_PER_GPU, STORAGE_USD_PER_GIB_HOUR } from "./rates";

/** A ledger row as metering wants it to be (numbers as the column's fixed-scale strings). */
export type LedgerRow = {
  key: string;
  orgId: string;
  projectId: string | null;
  instanceId: string | null;
  reservationId: string | null;
  kind: "compute" | "storage" | "reservation_commitment";
  pricingModel: "on_demand" | "spot" | "reserved_1m" | "reserved_1y" | null;
  instanceTypeId: string | null;
  gpuModelId: string | null;
  regionCode: string;
  periodStart: Date;
  periodEnd: Date;
  seconds: number;
  quantity: string;
  unit: "instance-hour" | "gpu-hour" | "gib-hour";
  unitPrice: string;
  listUnitPrice: string | null;
  amount: string;
};

export function ledgerKey(
  r: Pick<LedgerRow, "instanceId" | "reservationId" | "kind" | "periodStart">,
): string {
  return r.kind === "reservation_commitment"
    ? `r:${r.reservationId}:${r.periodStart.getTime()}`
    : `i:${r.instanceId}:${r.kind}:${r.periodStart.getTime()}`;
}

/**
 * Prices pieces into ledger rows. Uncovered compute is billed at the instance's own pricing model at the
 * segment's start (segments never straddle a price change); a reserved instance the reservations did not
 * cover (its reservation ended) falls back to on-demand, as does spot when no spot price was on sale. A
 * covered piece bills the reservation's locked rate per GPU-hour; the list price is always on-demand so that
 * savings are list − paid.
 */
export function priceRows(pieces: Piece[], unused: Unused[], book: PriceBook): LedgerRow[] {
  const rows: LedgerRow[] = [];
  for (const p of pieces) {
    const i = p.instance;
    const seconds = (p.end - p.start) / 1000;
    const base = {
      orgId: i.orgId,
      projectId: i.projectId,
      instanceId: i.id,
      instanceTypeId: i.instanceTypeId,
      gpuModelId: i.gpuModelId,
      regionCode: i.regionCode,
      periodStart: new Date(p.start),
      periodEnd: new Date(p.end),
      seconds,
    };
    if (p.kind === "storage") {
      rows.push(
        withKey({
          ...base,
          reservationId: null,
          kind: "storage",
          pricingModel: null,
          quantity: money(i.diskGib),
          unit: "gib-hour",
          unitPrice: money(STORAGE_USD_PER_GIB_HOUR, 8),
          listUnitPrice: null,
          amount: money((i.diskGib * seconds * STORAGE_USD_PER_GIB_HOUR) / 3600),
        }),
      );
      continue;
    }
    const list = book.at(i.instanceTypeId, i.regionCode, "on_demand", p.start);
    if (p.reservation) {
      const gpus = (i.gpuCount * i.slicesPerGpu) / SLICES_PER_GPU;
      rows.push(
        withKey({
          ...base,
          reservationId: p.reservation.id,
          kind: "compute",
          pricingModel: p.reservation.term,
          quantity: money(gpus),
          unit: "gpu-hour",
          unitPrice: money(p.reservation.usdPerGpuHour, 8),
          listUnitPrice: list === null ? null : money(list / gpus, 8),
          amount: money((gpus * seconds * p.reservation.usdPerGpuHour) / 3600),
        }),
      );
      continue;
    }
    let model = i.pricingModel === "spot" ? "spot" : "on_demand";
    let price = book.at(i.instanceTypeId, i.regionCode, model as "spot" | "on_demand", p.start);
    if (price === null && model === "spot") {
      model = "on_demand";
      price = list;
    }
    if (price === null) {
      console.warn(`[metering] no ${model} price for ${i.instanceTypeId} in ${i.regionCode}; billed at 0`);
    }
    rows.push(
      withKey({
        ...base,
        reservationId: null,
        kind: "compute",
        pricingModel: model as "spot" | "on_demand",
        quantity: money(1),
        unit: "instance-hour",
        unitPrice: money(price ?? 0, 8),
        listUnitPrice: list === null ? null : money(list, 8),
        amount: money(((price ?? 0) * seconds) / 3600),
      }),
    );
  }
  for (const u of unused) {
    const seconds = (u.end - u.start) / 1000;
    const gpuSeconds = u.sliceSeconds / SLICES_PER_GPU;
    const r = u.reservation;
    rows.push(
      withKey({
        orgId: r.orgId,
        projectId: null,
        instanceId: null,
        reservationId: r.id,
        kind: "reservation_commitment",
        pricingModel: r.term,
        instanceTypeId: null,
        gpuModelId: r.gpuModelId,
        regionCode: r.regionCode,
        periodStart: new Date(u.start),
        periodEnd: new Date(u.end),
        seconds,
        quantity: money(gpuSeconds / seconds),
        unit: "gpu-hour",
        unitPrice: money(r.usdPerGpuHour, 8),
        listUnitPrice: null,
        amount: money((gpuSeconds * r.usdPerGpuHour) / 3600),
      }),
    );
  }
  return rows;
}

function withKey(r: Omit<LedgerRow, "key">): LedgerRow {
  return { ...r, key: ledgerKey(r) };
}

import { type LedgerRow, ledgerKey } from "./ledger-rows";

/** A ledger row as stored. */
export type StoredRow = Omit<LedgerRow, "key"> & {
  id: number;
  entry: "usage" | "reversal" | "reissue";
  correctionOf: number | null;
};

export type NewRow = Omit<LedgerRow, "key"> & {
  entry: "usage" | "reversal" | "reissue";
  correctionOf: number | null;
};

const FIELDS = [
  "projectId",
  "reservationId",
  "pricingModel",
  "instanceTypeId",
  "gpuModelId",
  "regionCode",
  "seconds",
  "quantity",
  "unit",
  "unitPrice",
  "listUnitPrice",
  "amount",
] as const;

function same(a: Omit<LedgerRow, "key">, b: Omit<LedgerRow, "key">): boolean {
  if (a.periodEnd.getTime() !== b.periodEnd.getTime()) return false;
  return FIELDS.every((f) => a[f] === b[f]);
}

/**
 * What to append so that the ledger says what metering computed, without changing a stored row. Per key:
 * the effective row is the newest usage/reissue row no reversal points at. Unchanged → nothing; changed →
 * a reversal of the effective row plus a reissue; gone → a reversal; new → a usage row (or a reissue when the
 * key was written and reversed before, since the unique key admits one usage row per key).
 */
export function ledgerDiff(desired: LedgerRow[], stored: StoredRow[]): NewRow[] {
  const reversed = new Set(stored.filter((r) => r.entry === "reversal").map((r) => r.correctionOf));
  const byKey = new Map<string, { original: StoredRow | null; effective: StoredRow | null }>();
  for (const r of [...stored].sort((a, b) => a.id - b.id)) {
    const key = ledgerKey(r);
    const slot = byKey.get(key) ?? { original: null, effective: null };
    if (r.entry === "usage") slot.original = r;
    if (r.entry !== "reversal" && !reversed.has(r.id)) slot.effective = r;
    byKey.set(key, slot);
  }
  const out: NewRow[] = [];
  const wanted = new Map(desired.map((d) => [d.key, d]));
  for (const [key, slot] of byKey) {
    const d = wanted.get(key);
    const e = slot.effective;
    if (e && (!d || !same(d, e))) {
      const { id, entry: _entry, correctionOf: _c, ...values } = e;
      out.push({
        ...values,
        seconds: -e.seconds,
        amount: negate(e.amount),
        entry: "reversal",
        correctionOf: id,
      });
    }
    if (d && (!e || !same(d, e))) {
      const { key: _k, ...values } = d;
      out.push(
        slot.original
          ? { ...values, entry: "reissue", correctionOf: slot.original.id }
          : { ...values, entry: "usage", correctionOf: null },
      );
    }
  }
  for (const d of desired) {
    if (byKey.has(d.key)) continue;
    const { key: _k, ...values } = d;
    out.push({ ...values, entry: "usage", correctionOf: null });
  }
  return out;
}

function negate(amount: string): string {
  if (amount.startsWith("-")) return amount.slice(1);
  return /^0(\.0*)?$/.test(amount) ? amount : `-${amount}`;
}

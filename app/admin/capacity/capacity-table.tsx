import { getFormatter, getTranslations } from "next-intl/server";
import { tableClass, tdClass, thClass } from "@/components/admin/page-header";

export type CapacityRow = {
  key: string;
  regionName: string;
  gpuModelName: string;
  capacityNow: number | null;
  usedNow: number | null;
  peakUsed: number | null;
};

/** The capacity charts' numbers as a table: readable without the pictures and sortable by eye. */
export async function CapacityTable({ rows }: { rows: CapacityRow[] }) {
  const [t, format] = await Promise.all([getTranslations("Charts"), getFormatter()]);
  const gpus = (v: number | null) =>
    v === null ? t("noValue") : format.number(v, { maximumFractionDigits: 1 });
  const pct = (r: CapacityRow) =>
    r.capacityNow ? format.number((r.usedNow ?? 0) / r.capacityNow, { style: "percent" }) : t("noValue");
  const num = `${tdClass} text-right tabular-nums`;
  return (
    <div className="overflow-x-auto">
      <table className={tableClass}>
        <caption className="mb-2 text-left text-sm text-slate-600 dark:text-slate-400">
          {t("capacity.tableCaption")}
        </caption>
        <thead>
          <tr>
            <th scope="col" className={thClass}>
              {t("capacity.region")}
            </th>
            <th scope="col" className={thClass}>
              {t("capacity.model")}
            </th>
            <th scope="col" className={`${thClass} text-right`}>
              {t("capacity.capacityNow")}
            </th>
            <th scope="col" className={`${thClass} text-right`}>
              {t("capacity.usedNow")}
            </th>
            <th scope="col" className={`${thClass} text-right`}>
              {t("capacity.utilization")}
            </th>
            <th scope="col" className={`${thClass} text-right`}>
              {t("capacity.peakUsed")}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <th scope="row" className={`${tdClass} font-normal`}>
                {r.regionName}
              </th>
              <td className={tdClass}>{r.gpuModelName}</td>
              <td className={num}>{gpus(r.capacityNow)}</td>
              <td className={num}>{gpus(r.usedNow)}</td>
              <td className={num}>{pct(r)}</td>
              <td className={num}>{gpus(r.peakUsed)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

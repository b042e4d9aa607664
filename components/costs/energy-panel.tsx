import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import type { MonthlyEnergy } from "@/lib/metering";

type Props = {
  org: string;
  /** The chosen month with its instances, and a few recent months for the per-month totals. */
  selected: MonthlyEnergy;
  months: MonthlyEnergy[];
  /** Link to the same page with another `month`. */
  monthHref: (period: string) => string;
};

/** Energy and carbon, clearly an estimate, with the formula the numbers come from. */
export async function EnergyPanel({ org, selected, months, monthHref }: Props) {
  const t = await getTranslations("Costs.usage.energy");
  const format = await getFormatter();
  const kwh = (n: number) => format.number(n, { maximumFractionDigits: 2 });
  const kg = (g: number) => format.number(g / 1000, { maximumFractionDigits: 2 });
  const monthName = (p: string) =>
    format.dateTime(new Date(`${p}-01T00:00:00Z`), { month: "long", year: "numeric", timeZone: "UTC" });
  return (
    <section
      aria-labelledby="energy-heading"
      className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="energy-heading" className="text-base font-semibold">
          {t("heading")}
        </h2>
        <span className="rounded-full border border-amber-700 px-2 py-0.5 text-xs font-medium text-amber-800 dark:border-amber-400 dark:text-amber-300">
          {t("estimate")}
        </span>
      </div>
      <div className="text-sm text-slate-700 dark:text-slate-300">
        <p className="font-medium">{t("formulaHeading")}</p>
        <p className="font-mono text-xs">{t("formulaEnergy")}</p>
        <p className="font-mono text-xs">{t("formulaCarbon")}</p>
        <p className="mt-1 text-xs">{t("formulaNote")}</p>
      </div>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm tabular-nums">
          <caption className="mb-1 text-left text-xs text-slate-600 dark:text-slate-400">
            {t("perMonthCaption")}
          </caption>
          <thead>
            <tr className="border-b border-slate-200 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
              <th scope="col" className="py-1 pr-3 font-medium">
                {t("month")}
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                {t("kwh")}
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                {t("co2")}
              </th>
            </tr>
          </thead>
          <tbody>
            {months.map((m) => (
              <tr key={m.period} className="border-b border-slate-100 dark:border-slate-800">
                <th scope="row" className="py-1 pr-3 font-normal">
                  {m.period === selected.period ? (
                    <span aria-current="true" className="font-semibold">
                      {monthName(m.period)}
                    </span>
                  ) : (
                    <Link
                      href={monthHref(m.period)}
                      scroll={false}
                      className="text-orange-800 underline dark:text-orange-300"
                    >
                      {monthName(m.period)}
                    </Link>
                  )}
                </th>
                <td className="py-1 pr-3 text-right">{kwh(m.totalKwh)}</td>
                <td className="py-1 text-right">{kg(m.totalGco2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3 className="text-sm font-semibold">
        {t("perInstanceHeading", { month: monthName(selected.period) })}
      </h3>
      {selected.instances.length === 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("empty")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm tabular-nums">
            <caption className="sr-only">
              {t("perInstanceHeading", { month: monthName(selected.period) })}
            </caption>
            <thead>
              <tr className="border-b border-slate-200 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("instance")}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("region")}
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  {t("gpuKwh")}
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  {t("pue")}
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  {t("kwh")}
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  {t("grid")}
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  {t("co2")}
                </th>
              </tr>
            </thead>
            <tbody>
              {selected.instances.map((i) => (
                <tr key={i.instanceId} className="border-b border-slate-100 dark:border-slate-800">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    <Link
                      href={`/${org}/instances/${i.instanceId}`}
                      className="text-orange-800 underline dark:text-orange-300"
                    >
                      {i.name}
                    </Link>
                  </th>
                  <td className="py-1 pr-3 font-mono text-xs">{i.regionCode}</td>
                  <td className="py-1 pr-3 text-right">{kwh(i.gpuKwh)}</td>
                  <td className="py-1 pr-3 text-right">
                    {format.number(i.pue, { maximumFractionDigits: 2 })}
                  </td>
                  <td className="py-1 pr-3 text-right">{kwh(i.facilityKwh)}</td>
                  <td className="py-1 pr-3 text-right">{format.number(i.gridGco2PerKwh)}</td>
                  <td className="py-1 text-right">{kg(i.gco2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

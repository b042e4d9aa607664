import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import type { TopInstance } from "@/lib/metering";

/** The instances that cost the most in the range, each linking to its page. */
export async function TopInstances({
  org,
  instances,
  currency,
}: {
  org: string;
  instances: TopInstance[];
  currency: string;
}) {
  const t = await getTranslations("Costs.usage.top");
  const tp = await getTranslations("Costs.pricing");
  const format = await getFormatter();
  return (
    <section
      aria-labelledby="top-heading"
      className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id="top-heading" className="text-base font-semibold">
        {t("heading")}
      </h2>
      {instances.length === 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("empty")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm tabular-nums">
            <thead>
              <tr className="border-b border-slate-200 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("instance")}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("project")}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("type")}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("region")}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("pricing")}
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  {t("hours")}
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  {t("cost")}
                </th>
              </tr>
            </thead>
            <tbody>
              {instances.map((i) => (
                <tr key={i.instanceId} className="border-b border-slate-100 dark:border-slate-800">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    <Link
                      href={`/${org}/instances/${i.instanceId}`}
                      className="text-orange-800 underline dark:text-orange-300"
                    >
                      {i.name}
                    </Link>
                  </th>
                  <td className="py-1 pr-3">{i.projectName}</td>
                  <td className="py-1 pr-3 font-mono text-xs">{i.instanceTypeId}</td>
                  <td className="py-1 pr-3 font-mono text-xs">{i.regionCode}</td>
                  <td className="py-1 pr-3">
                    {tp.has(i.pricingModel) ? tp(i.pricingModel) : i.pricingModel}
                  </td>
                  <td className="py-1 pr-3 text-right">
                    {format.number(i.computeHours, { maximumFractionDigits: 1 })}
                  </td>
                  <td className="py-1 text-right font-medium">
                    {format.number(i.amountUsd, { style: "currency", currency })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

import { useFormatter, useTranslations } from "next-intl";
import type { CostView } from "@/lib/provisioning";

/** Cost so far as hours × the catalog price: labelled an estimate because metering is not in place yet. */
export function CostEstimate({ cost }: { cost: CostView | null }) {
  const t = useTranslations("Instances.cost");
  const format = useFormatter();
  const usd = (n: number) => format.number(n, { style: "currency", currency: "USD" });
  return (
    <section
      aria-labelledby="cost-heading"
      className="rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id="cost-heading" className="text-lg font-semibold">
        {t("title")}
      </h2>
      {cost && cost.usd !== null && cost.usdPerHour !== null ? (
        <>
          <p className="mt-1 text-2xl font-semibold">{usd(cost.usd)}</p>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {t("breakdown", {
              hours: format.number(cost.hours, { maximumFractionDigits: 2 }),
              price: usd(cost.usdPerHour),
            })}
          </p>
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{t("unavailable")}</p>
      )}
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">{t("estimateNote")}</p>
    </section>
  );
}

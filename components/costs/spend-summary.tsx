import { getFormatter, getTranslations } from "next-intl/server";
import type { Forecast } from "@/lib/metering";

type Props = {
  forecast: Forecast & { currency: string; meteredUntil: Date | null };
};

/**
 * Month-to-date spend and the month-end forecast, with the method in words built from the very numbers the
 * forecast used (so the reader can redo the sum).
 */
export async function SpendSummary({ forecast: f }: Props) {
  const t = await getTranslations("Costs.usage.summary");
  const format = await getFormatter();
  const money = (n: number) => format.number(n, { style: "currency", currency: f.currency });
  const rate = Math.max(f.burnPerHourUsd, f.trendPerHourUsd);
  const month = format.dateTime(new Date(`${f.period}-01T00:00:00Z`), {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  return (
    <section aria-labelledby="spend-heading" className="flex flex-col gap-3">
      <h2 id="spend-heading" className="sr-only">
        {t("heading", { month })}
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="rounded-lg border border-slate-200 p-4 dark:border-slate-800">
          <p className="text-sm text-slate-600 dark:text-slate-400">{t("mtd", { month })}</p>
          <p className="text-3xl font-semibold tabular-nums">{money(f.actualUsd)}</p>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {f.meteredUntil
              ? t("meteredUntil", {
                  metered: money(f.meteredUsd),
                  accrued: money(f.accruedUsd),
                  time: format.dateTime(f.meteredUntil, {
                    dateStyle: "medium",
                    timeStyle: "short",
                    timeZone: "UTC",
                  }),
                })
              : t("notMeteredYet", { accrued: money(f.accruedUsd) })}
          </p>
        </div>
        <div className="rounded-lg border border-slate-200 p-4 dark:border-slate-800">
          <p className="text-sm text-slate-600 dark:text-slate-400">{t("forecast")}</p>
          <p className="text-3xl font-semibold tabular-nums">{money(f.forecastUsd)}</p>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {t("burn", { burn: money(f.burnPerHourUsd), trend: money(f.trendPerHourUsd) })}
          </p>
        </div>
      </div>
      <div className="flex flex-col gap-1 text-sm">
        <h3 className="font-medium">{t("methodHeading")}</h3>
        <div className="flex flex-col gap-1 text-slate-700 dark:text-slate-300">
          <p>{t("method")}</p>
          <p className="font-mono text-xs">
            {t("methodSum", {
              actual: money(f.actualUsd),
              rate: money(rate),
              hours: format.number(f.remainingHours, { maximumFractionDigits: 1 }),
              forecast: money(f.forecastUsd),
            })}
          </p>
        </div>
      </div>
    </section>
  );
}

import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import type { Savings } from "@/lib/metering";
import { ReservationsTable } from "./reservations-table";

/** What spot and reservations saved against on-demand list prices in the range, and reservation utilization. */
export async function SavingsPanel({
  org,
  savings,
  currency,
  now,
  modelNames,
}: {
  org: string;
  savings: Savings;
  currency: string;
  now: Date;
  modelNames: Record<string, string>;
}) {
  const t = await getTranslations("Costs.usage.savings");
  const format = await getFormatter();
  const money = (n: number) => format.number(n, { style: "currency", currency });
  const items = [
    { label: t("spot"), value: savings.spotSavingsUsd, hint: t("spotHint") },
    {
      label: t("reservedCovered"),
      value: savings.reservationCoveredSavingsUsd,
      hint: t("reservedCoveredHint"),
    },
    { label: t("reservedUnused"), value: savings.reservationUnusedCostUsd, hint: t("reservedUnusedHint") },
    { label: t("reservedNet"), value: savings.reservationNetSavingsUsd, hint: t("reservedNetHint") },
  ];
  return (
    <section
      aria-labelledby="savings-heading"
      className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="savings-heading" className="text-base font-semibold">
          {t("heading")}
        </h2>
        <Link
          href={`/${org}/usage/reservations`}
          className="text-sm text-orange-800 underline dark:text-orange-300"
        >
          {t("manage")}
        </Link>
      </div>
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {items.map((i) => (
          <div key={i.label} className="rounded-md bg-slate-50 p-3 dark:bg-slate-900">
            <dt className="text-xs text-slate-600 dark:text-slate-400">{i.label}</dt>
            <dd className="text-lg font-semibold tabular-nums">{money(i.value)}</dd>
            <dd className="text-xs text-slate-600 dark:text-slate-400">{i.hint}</dd>
          </div>
        ))}
      </dl>
      {savings.reservations.length === 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("noReservations")}</p>
      ) : (
        <ReservationsTable
          reservations={savings.reservations}
          currency={currency}
          now={now}
          caption={t("utilizationCaption")}
          modelNames={modelNames}
        />
      )}
    </section>
  );
}

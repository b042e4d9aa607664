import { useTranslations } from "next-intl";
import type { OfferingPage } from "@/lib/catalog";
import { type ExpectedWait, OfferingCard } from "./offering-card";

/** The current page of offerings with the running count ("Showing 1–20 of 148 offerings"). */
export function OfferingList({
  orgSlug,
  result,
  waits,
}: {
  orgSlug: string;
  result: OfferingPage;
  /** Recent median queue wait keyed by "<region>/<gpu model>". */
  waits: Record<string, ExpectedWait>;
}) {
  const t = useTranslations("Catalog");
  const from = (result.page - 1) * result.pageSize + 1;
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {t("showing", { from, to: from + result.items.length - 1, total: result.total })}
      </p>
      <ul aria-labelledby="catalog-results-heading" className="grid grid-cols-1 gap-3 xl:grid-cols-2">
        {result.items.map((o) => (
          <li key={`${o.instanceTypeId}@${o.regionCode}`}>
            <OfferingCard
              offering={o}
              orgSlug={orgSlug}
              pricing={result.filters.pricing}
              expectedWait={waits[`${o.regionCode}/${o.gpuModelId}`] ?? null}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

import { useTranslations } from "next-intl";
import type { OfferingPage } from "@/lib/catalog";
import { CompareForm } from "./compare-form";
import { OfferingCard } from "./offering-card";
import type { ExpectedWait } from "./offering-format";
import { OfferingTable } from "./offering-table";

/**
 * The current page of offerings with the running count ("Showing 1–20 of 148 offerings"): a sortable table
 * on wide screens, cards on narrow ones (the other one is display:none, so it is out of the accessibility
 * tree too), both inside the form that opens the compare view.
 */
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
    <CompareForm action={`/${orgSlug}/catalog/compare`}>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {t("showing", { from, to: from + result.items.length - 1, total: result.total })}
      </p>
      <div className="hidden lg:block">
        <OfferingTable orgSlug={orgSlug} items={result.items} filters={result.filters} waits={waits} />
      </div>
      <ul
        aria-labelledby="catalog-results-heading"
        className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:hidden"
      >
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
    </CompareForm>
  );
}

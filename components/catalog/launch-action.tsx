import Link from "next/link";
import { useTranslations } from "next-intl";
import type { Offering } from "@/lib/catalog";
import type { PricingModel } from "@/lib/catalog/schemas";

type Props = { offering: Offering; orgSlug: string; pricing: PricingModel; title: string; reasonId: string };

/**
 * Launch link to the form with the offering filled in — or, outside the organization's data residency, a
 * disabled button with the reason beside it (shown, not hidden, so people see why).
 */
export function LaunchAction({ offering: o, orgSlug, pricing, title, reasonId }: Props) {
  const t = useTranslations("Catalog");
  if (o.allowed) {
    const href = `/${orgSlug}/instances/new?${new URLSearchParams({
      instanceType: o.instanceTypeId,
      region: o.regionCode,
      pricing,
    })}`;
    return (
      <Link
        href={href}
        aria-label={t("launchLabel", { type: title, region: o.regionName, pricing: t(`pricing.${pricing}`) })}
        className="inline-flex rounded-md bg-orange-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-orange-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600"
      >
        {t("launch")}
      </Link>
    );
  }
  return (
    <div className="flex flex-col gap-1">
      <button
        type="button"
        disabled
        aria-describedby={reasonId}
        className="w-fit cursor-not-allowed rounded-md bg-slate-200 px-3 py-1.5 text-sm font-medium text-slate-600 dark:bg-slate-800 dark:text-slate-400"
      >
        {t("launch")}
      </button>
      <p id={reasonId} className="text-xs text-slate-700 dark:text-slate-300">
        {t("disallowed", { jurisdictions: (o.disallowedReason?.allowedJurisdictions ?? []).join(", ") })}
      </p>
    </div>
  );
}

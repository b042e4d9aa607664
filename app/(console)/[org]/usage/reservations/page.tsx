import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ReservationPurchase } from "@/components/costs/reservation-purchase";
import { ReservationsTable } from "@/components/costs/reservations-table";
import { roleAtLeast } from "@/lib/access";
import { listGpuModels, listRegions } from "@/lib/catalog";
import { nowOf } from "@/lib/core";
import { savings } from "@/lib/metering";
import { getOrgPageContext } from "../../org-context";
import { purchaseReservationAction, quoteReservationAction } from "./actions";

const DAY = 86_400_000;

export default async function ReservationsPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { ctx, org, role } = await getOrgPageContext(slug);
  const now = nowOf(ctx);
  const canBuy = roleAtLeast(role, "admin");
  // The longest window the library allows: every 1-month reservation and the metered part of 1-year ones.
  const range = { from: new Date(now.getTime() - 365 * DAY), to: new Date(now.getTime() + DAY) };
  const [t, saved, models, regionGroups] = await Promise.all([
    getTranslations("Costs.reservations"),
    savings(ctx, slug, range),
    listGpuModels(ctx),
    canBuy ? listRegions(ctx) : [],
  ]);
  const allowed = org.allowedJurisdictions;
  const regions = regionGroups
    .filter((g) => allowed.length === 0 || allowed.includes(g.jurisdiction))
    .flatMap((g) => g.regions);
  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <nav aria-label={t("breadcrumb")} className="text-sm">
        <Link href={`/${slug}/usage`} className="text-orange-800 underline dark:text-orange-300">
          {t("back")}
        </Link>
      </nav>
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p className="max-w-3xl text-sm text-slate-700 dark:text-slate-300">{t("intro")}</p>
      <section aria-labelledby="reservations-heading" className="flex flex-col gap-3">
        <h2 id="reservations-heading" className="text-lg font-semibold">
          {t("listHeading")}
        </h2>
        {saved.reservations.length === 0 ? (
          <p className="text-sm">{canBuy ? t("emptyAdmin") : t("empty")}</p>
        ) : (
          <ReservationsTable
            reservations={saved.reservations}
            currency="USD"
            now={now}
            caption={t("listCaption")}
            modelNames={Object.fromEntries(models.map((m) => [m.id, m.name]))}
          />
        )}
      </section>
      <section aria-labelledby="purchase-heading" className="flex flex-col gap-3">
        <h2 id="purchase-heading" className="text-lg font-semibold">
          {t("purchaseHeading")}
        </h2>
        {canBuy ? (
          <ReservationPurchase
            gpuModels={models.map((m) => ({ id: m.id, name: m.name }))}
            regions={regions.map((r) => ({ code: r.code, name: r.name }))}
            quoteAction={quoteReservationAction.bind(null, slug)}
            purchaseAction={purchaseReservationAction.bind(null, slug)}
          />
        ) : (
          <p role="note" className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
            {t("adminsOnly")}
          </p>
        )}
      </section>
    </div>
  );
}

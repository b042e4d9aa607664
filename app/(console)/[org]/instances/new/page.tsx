import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { LaunchForm } from "@/components/instances/launch-form";
import { LaunchKindField } from "@/components/instances/launch-kind";
import type { LaunchDefaults } from "@/components/instances/launch-options";
import { LazyServiceForm } from "@/components/services/service-form-lazy";
import { roleAtLeast } from "@/lib/access";
import { getOrgPageContext } from "../../org-context";
import { createServiceAction } from "../../services/actions";
import { serviceFormOptions } from "../../services/form-options";
import { launchInstanceAction } from "./actions";
import { loadLaunchOptions } from "./options";

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || "";

/** The catalog's pricing models name the reservation term; a launch asks for "reserved" and gets the term held. */
function pricingChoice(v: string): LaunchDefaults["pricingModel"] {
  if (v === "spot") return "spot";
  if (v.startsWith("reserved")) return "reserved";
  return "on_demand";
}

export default async function NewInstancePage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string }>;
  searchParams: Promise<Search>;
}) {
  const { org: slug } = await params;
  const sp = await searchParams;
  const { ctx, role } = await getOrgPageContext(slug);
  const t = await getTranslations("Instances");
  if (!roleAtLeast(role, "member")) {
    return (
      <div className="flex max-w-xl flex-col gap-2">
        <h1 className="text-2xl font-semibold">{t("launch.title")}</h1>
        <p>{t("launch.viewerCannot")}</p>
        <Link href={`/${slug}/instances`} className="text-orange-800 underline dark:text-orange-300">
          {t("backToList")}
        </Link>
      </div>
    );
  }
  const header = (
    <>
      <nav aria-label={t("breadcrumb")} className="text-sm">
        <Link href={`/${slug}/instances`} className="text-orange-800 underline dark:text-orange-300">
          {t("backToList")}
        </Link>
      </nav>
      <h1 className="text-2xl font-semibold">{t("launch.title")}</h1>
    </>
  );
  if (one(sp.kind) === "service") {
    // The same form and action as /services/new: one spec, one set of field messages.
    return (
      <div className="flex flex-col gap-4">
        {header}
        <LaunchKindField value="service" />
        <LazyServiceForm
          org={slug}
          action={createServiceAction.bind(null, slug)}
          options={await serviceFormOptions(ctx, slug)}
        />
      </div>
    );
  }
  const options = await loadLaunchOptions(ctx, slug);
  const wantedType = one(sp.instanceType);
  const wantedRegion = one(sp.region);
  const match =
    options.offerings.find(
      (o) => o.instanceTypeId === wantedType && (!wantedRegion || o.regionCode === wantedRegion),
    ) ?? null;
  const linkMissed = Boolean(wantedType) && !match;
  const region =
    match?.regionCode ??
    (options.regions.some((r) => r.code === wantedRegion && r.allowed) ? wantedRegion : "");
  const defaults: LaunchDefaults = {
    kind: one(sp.kind) === "container" ? "container" : "notebook",
    region,
    instanceType: match?.instanceTypeId ?? "",
    pricingModel: pricingChoice(one(sp.pricing)),
    project: options.projects.some((p) => p.slug === one(sp.project))
      ? one(sp.project)
      : (options.projects[0]?.slug ?? ""),
  };
  return (
    <div className="flex flex-col gap-4">
      {header}
      {linkMissed ? (
        <p
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950"
        >
          {t("launch.linkMissed", { type: wantedType, region: wantedRegion || "—" })}
        </p>
      ) : null}
      <LaunchForm
        org={slug}
        action={launchInstanceAction.bind(null, slug)}
        projects={options.projects}
        regions={options.regions}
        offerings={options.offerings}
        images={options.images}
        defaults={defaults}
      />
    </div>
  );
}

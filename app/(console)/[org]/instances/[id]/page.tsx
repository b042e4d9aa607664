import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { InstanceLive } from "@/components/instances/instance-live";
import { LogsPanel } from "@/components/instances/logs-panel";
import { NotFoundError } from "@/lib/core";
import { getOrgPageContext } from "../../org-context";
import { instanceAction } from "../actions";
import { loadInstanceDetail } from "../views";

async function load(...args: Parameters<typeof loadInstanceDetail>) {
  try {
    return await loadInstanceDetail(...args);
  } catch (err) {
    // Another organization's instance (or a made-up id) looks exactly like a missing one.
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
}

export default async function InstancePage({ params }: { params: Promise<{ org: string; id: string }> }) {
  const { org: slug, id } = await params;
  const { ctx } = await getOrgPageContext(slug);
  const t = await getTranslations("Instances");
  const detail = await load(ctx, slug, id);
  return (
    <div className="flex flex-col gap-4">
      <nav aria-label={t("breadcrumb")} className="text-sm">
        <Link href={`/${slug}/instances`} className="text-orange-800 underline dark:text-orange-300">
          {t("backToList")}
        </Link>
      </nav>
      <InstanceLive org={slug} initial={detail} run={instanceAction.bind(null, slug)} />
      <section
        aria-labelledby="charts-heading"
        className="rounded-lg border border-slate-200 p-4 dark:border-slate-800"
      >
        <h2 id="charts-heading" className="text-lg font-semibold">
          {t("charts.title")}
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("charts.pending")}</p>
      </section>
      {detail.kind === "container" ? <LogsPanel org={slug} id={detail.id} /> : null}
    </div>
  );
}

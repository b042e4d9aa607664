import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { InstanceFilters } from "@/components/instances/instance-filters";
import { InstancesEmpty } from "@/components/instances/instances-empty";
import { InstancesTable } from "@/components/instances/instances-table";
import { filterQuery } from "@/components/instances/labels";
import { Pagination } from "@/components/ui/pagination";
import { roleAtLeast } from "@/lib/access";
import { listRegions } from "@/lib/catalog";
import { INSTANCE_STATES, type InstanceState, loadInstanceList } from "@/lib/provisioning";
import { listProjects } from "@/lib/tenancy";
import { getOrgPageContext } from "../../org-context";
import { stopInstancesAction } from "../actions";

type Search = Record<string, string | string[] | undefined>;

function one(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return s?.trim() || undefined;
}

export default async function InstancesPage({
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
  const rawState = one(sp.state);
  // A mistyped state in a shared link lists everything rather than failing the page.
  const state = INSTANCE_STATES.includes(rawState as InstanceState) ? (rawState as InstanceState) : undefined;
  const page = Math.max(1, Number.parseInt(one(sp.page) ?? "1", 10) || 1);
  const filter = { project: one(sp.project), state, region: one(sp.region), page };
  const [initial, projects, regionGroups] = await Promise.all([
    loadInstanceList(ctx, slug, filter),
    listProjects(ctx, slug),
    listRegions(ctx),
  ]);
  const canAct = roleAtLeast(role, "member");
  const pageCount = Math.max(1, Math.ceil(initial.total / initial.pageSize));
  const pageHref = (p: number) => {
    const qs = filterQuery({ ...filter, page: p });
    return qs ? `/${slug}/instances?${qs}` : `/${slug}/instances`;
  };
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        {canAct ? (
          <Link
            href={`/${slug}/instances/new`}
            className="rounded-md bg-orange-700 px-3 py-2 text-sm font-medium text-white hover:bg-orange-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600"
          >
            {t("newInstance")}
          </Link>
        ) : null}
      </div>
      <InstanceFilters
        key={filterQuery(filter)}
        values={filter}
        projects={projects.map((p) => ({ slug: p.slug, name: p.name }))}
        regions={regionGroups.flatMap((g) => g.regions.map((r) => ({ code: r.code, name: r.name })))}
        states={INSTANCE_STATES}
      />
      <InstancesTable
        org={slug}
        filter={filter}
        initial={initial}
        canAct={canAct}
        stopAction={stopInstancesAction.bind(null, slug)}
        empty={
          <InstancesEmpty
            org={slug}
            filtered={Boolean(filter.project || filter.state || filter.region)}
            canAct={canAct}
          />
        }
      />
      {pageCount > 1 ? (
        <Pagination page={page} pageCount={pageCount} total={initial.total} href={pageHref} />
      ) : null}
    </div>
  );
}

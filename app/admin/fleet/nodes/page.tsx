import Form from "next/form";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { EmptyState, HeaderRow, PageHeader, tableClass, tdClass } from "@/components/admin/page-header";
import { listNodes } from "@/lib/admin";
import { quotaChoices } from "@/lib/quotas";
import { first, getAdminContext, type SearchParams } from "../../admin-context";

const control =
  "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900";
const STATUSES = ["active", "draining", "down"] as const;

/** Every node with its status, GPUs, MIG layout and what runs there; filters in the URL. */
export default async function NodesPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await getAdminContext();
  const sp = await searchParams;
  const region = first(sp.region)?.trim() || undefined;
  const status = first(sp.status)?.trim() || undefined;
  const [nodes, choices, t, format] = await Promise.all([
    listNodes(ctx, { region, status }),
    quotaChoices(ctx),
    getTranslations("Fleet"),
    getFormatter(),
  ]);
  return (
    <>
      <PageHeader title={t("nodesTitle")} description={t("nodesDescription")}>
        <Link
          href="/admin/fleet/nodes/new"
          className="rounded-md bg-orange-700 px-3 py-2 text-sm font-medium text-white hover:bg-orange-800"
        >
          {t("addNode")}
        </Link>
      </PageHeader>
      <Form
        action="/admin/fleet/nodes"
        className="mb-4 flex flex-wrap items-end gap-3"
        aria-label={t("filters")}
      >
        <label className="flex flex-col gap-1 text-sm">
          <span>{t("region")}</span>
          <select name="region" defaultValue={region ?? ""} className={control}>
            <option value="">{t("allRegions")}</option>
            {choices.regions.map((r) => (
              <option key={r.code} value={r.code}>
                {r.code} — {r.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          <span>{t("status")}</span>
          <select name="status" defaultValue={status ?? ""} className={control}>
            <option value="">{t("allStatuses")}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`statuses.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          className="rounded-md bg-orange-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-orange-800"
        >
          {t("apply")}
        </button>
      </Form>
      {nodes.length === 0 ? (
        <EmptyState title={t("noNodes")} body={t("noNodesHint")} />
      ) : (
        <div className="overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">{t("nodesCaption")}</caption>
            <HeaderRow
              labels={(
                ["node", "region", "model", "status", "gpus", "mig", "allocated", "instances"] as const
              ).map((k) => t(`col.${k}`))}
            />
            <tbody>
              {nodes.map((n) => (
                <tr key={n.id}>
                  <th scope="row" className={`${tdClass} font-medium`}>
                    <Link
                      href={`/admin/fleet/nodes/${n.id}`}
                      className="text-orange-700 underline dark:text-orange-400"
                    >
                      {n.name}
                    </Link>
                  </th>
                  <td className={tdClass}>{n.regionCode}</td>
                  <td className={tdClass}>{n.gpuModelName}</td>
                  <td className={tdClass}>{t(`statuses.${n.status}`)}</td>
                  <td className={tdClass}>{format.number(n.gpuCount)}</td>
                  <td className={tdClass}>{format.number(n.migGpus)}</td>
                  <td className={tdClass}>{format.number(n.gpusAllocated)}</td>
                  <td className={tdClass}>{format.number(n.instances)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

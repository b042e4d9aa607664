import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getTranslations } from "next-intl/server";
import { EmptyState, HeaderRow, PageHeader, tableClass, tdClass } from "@/components/admin/page-header";
import { getNode } from "@/lib/admin";
import { NotFoundError } from "@/lib/core";
import { getAdminContext } from "../../../admin-context";
import { MigLayoutForm } from "./mig-layout-form";
import { NodeActions } from "./node-actions";

/** One node: its state, GPUs with their MIG mode and holders, the instances on it, drain / fail / reactivate. */
export default async function NodePage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await getAdminContext();
  const { id } = await params;
  const node = await getNode(ctx, id).catch((e) => {
    if (e instanceof NotFoundError) notFound();
    throw e;
  });
  const [t, format] = await Promise.all([getTranslations("Fleet"), getFormatter()]);
  const gpus = (n: number) => format.number(n, { maximumFractionDigits: 2 });
  return (
    <>
      <PageHeader
        title={t("nodeTitle", { name: node.name })}
        description={t("nodeDescription", {
          region: node.regionCode,
          model: node.gpuModelName,
          vcpus: node.vcpus,
          ram: node.ramGib,
        })}
      >
        <Link
          href={`/admin/fleet/nodes?region=${node.regionCode}`}
          className="text-sm text-orange-700 underline"
        >
          {t("backToNodes")}
        </Link>
      </PageHeader>
      <section aria-labelledby="n-status" className="mb-8">
        <h2 id="n-status" className="mb-2 text-lg font-semibold">
          {t("status")}
        </h2>
        <p className="mb-3 text-sm">
          <strong>{t(`statuses.${node.status}`)}</strong> — {t(`statusHelp.${node.status}`)}
        </p>
        <NodeActions nodeId={node.id} name={node.name} status={node.status} />
      </section>
      <section aria-labelledby="n-instances" className="mb-8">
        <h2 id="n-instances" className="mb-2 text-lg font-semibold">
          {t("instancesTitle")}
        </h2>
        {node.running.length === 0 ? (
          <EmptyState title={t("noInstances")} body={t("noInstancesHint")} />
        ) : (
          <table className={tableClass}>
            <caption className="sr-only">{t("instancesCaption", { name: node.name })}</caption>
            <HeaderRow
              labels={(["instance", "organization", "state", "gpus", "borrowed", "autoRecover"] as const).map(
                (k) => t(`col.${k}`),
              )}
            />
            <tbody>
              {node.running.map((i) => (
                <tr key={i.id}>
                  <th scope="row" className={`${tdClass} font-medium`}>
                    {i.name}
                  </th>
                  <td className={tdClass}>
                    <Link href={`/admin/tenants/${i.orgSlug}`} className="text-orange-700 underline">
                      {i.orgName}
                    </Link>
                  </td>
                  <td className={tdClass}>
                    {i.state}
                    {i.stateDeadline && (
                      <>
                        {" "}
                        {t("until")}{" "}
                        <time dateTime={i.stateDeadline.toISOString()} title={i.stateDeadline.toISOString()}>
                          {format.dateTime(i.stateDeadline, { timeStyle: "medium" })}
                        </time>
                      </>
                    )}
                  </td>
                  <td className={tdClass}>{gpus(i.gpus)}</td>
                  <td className={tdClass}>{i.borrowed ? t("yes") : t("no")}</td>
                  <td className={tdClass}>{i.autoRecover ? t("yes") : t("no")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="n-gpus" className="mb-8">
        <h2 id="n-gpus" className="mb-2 text-lg font-semibold">
          {t("gpusTitle")}
        </h2>
        <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          {node.migProfiles.length
            ? t("migProfiles", { profiles: node.migProfiles.join(", ") })
            : t("noMigProfiles")}
        </p>
        <table className={tableClass}>
          <caption className="sr-only">{t("gpusCaption", { name: node.name })}</caption>
          <HeaderRow labels={(["gpu", "mode", "slicesUsed", "holders"] as const).map((k) => t(`col.${k}`))} />
          <tbody>
            {node.gpus.map((g) => (
              <tr key={g.index}>
                <th scope="row" className={`${tdClass} font-medium`}>
                  {t("gpuIndex", { index: g.index })}
                </th>
                <td className={tdClass}>{g.migEnabled ? t("modeMig") : t("modeWhole")}</td>
                <td className={tdClass}>{t("slices", { used: g.slicesUsed })}</td>
                <td className={tdClass}>
                  {g.holders.length === 0
                    ? t("idle")
                    : g.holders
                        .map((h) =>
                          t("holder", {
                            instance: h.instanceName,
                            org: h.orgSlug,
                            what: h.migProfile ?? t("wholeGpu"),
                          }),
                        )
                        .join("; ")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {node.migProfiles.length > 0 && (
        <section className="mb-8">
          <MigLayoutForm
            nodeId={node.id}
            gpus={node.gpus.map((g) => ({ index: g.index, migEnabled: g.migEnabled }))}
            busyInstances={new Set(node.gpus.flatMap((g) => g.holders.map((h) => h.instanceId))).size}
          />
        </section>
      )}
    </>
  );
}

import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getTranslations } from "next-intl/server";
import { EmptyState, PageHeader, tableClass, tdClass, thClass } from "@/components/admin/page-header";
import { getTenant } from "@/lib/admin";
import { NotFoundError } from "@/lib/core";
import { getAdminContext } from "../../admin-context";
import { SuspendForms } from "./suspend-forms";

export default async function TenantPage({ params }: { params: Promise<{ org: string }> }) {
  const ctx = await getAdminContext();
  const { org: slug } = await params;
  const tenant = await getTenant(ctx, slug).catch((e) => {
    if (e instanceof NotFoundError) notFound();
    throw e;
  });
  const [t, format] = await Promise.all([getTranslations("Admin.tenant"), getFormatter()]);
  const { org, suspension } = tenant;
  const when = (d: Date) => (
    <time dateTime={d.toISOString()} title={d.toISOString()}>
      {format.dateTime(d, { dateStyle: "medium", timeStyle: "short" })}
    </time>
  );
  const gpus = (n: number) => format.number(n, { maximumFractionDigits: 2 });
  return (
    <>
      <PageHeader title={org.name} description={t("description", { slug: org.slug })} />
      <section aria-labelledby="t-status" className="mb-8">
        <h2 id="t-status" className="mb-2 text-lg font-semibold">
          {t("status")}
        </h2>
        {suspension ? (
          <p className="mb-3 text-sm">
            <strong>{t("suspendedBadge")}</strong> —{" "}
            {t("suspendedLine", { reason: suspension.reason, by: suspension.by ?? "—" })}{" "}
            {when(suspension.suspendedAt)}. {t("noticeEnds")} {when(suspension.noticeEndsAt)}.
          </p>
        ) : (
          <p className="mb-3 text-sm">{t("active")}</p>
        )}
        <SuspendForms org={org.slug} suspended={suspension !== null} />
      </section>
      <dl className="mb-8 grid grid-cols-2 gap-4 sm:grid-cols-4">
        {[
          [t("runningGpus"), gpus(tenant.runningGpus)],
          [t("spendMtd"), format.number(tenant.spendMtdUsd, { style: "currency", currency: "USD" })],
          [t("memberCount"), format.number(tenant.members.length)],
          [t("projectCount"), format.number(tenant.projects.length)],
        ].map(([k, v]) => (
          <div key={k} className="rounded-md border border-slate-200 p-3 dark:border-slate-800">
            <dt className="text-xs text-slate-600 dark:text-slate-400">{k}</dt>
            <dd className="text-lg font-semibold">{v}</dd>
          </div>
        ))}
      </dl>
      <Section
        id="t-members"
        title={t("members")}
        empty={tenant.members.length === 0 ? t("noMembers") : null}
      >
        <table className={tableClass}>
          <thead>
            <tr>
              <th scope="col" className={thClass}>
                {t("email")}
              </th>
              <th scope="col" className={thClass}>
                {t("role")}
              </th>
            </tr>
          </thead>
          <tbody>
            {tenant.members.map((m) => (
              <tr key={m.email}>
                <td className={tdClass}>{m.email}</td>
                <td className={tdClass}>{m.role}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section
        id="t-projects"
        title={t("projects")}
        empty={tenant.projects.length === 0 ? t("noProjects") : null}
      >
        <ul className="list-disc pl-5 text-sm">
          {tenant.projects.map((p) => (
            <li key={p.slug}>
              {p.name} ({p.slug}, {p.environment})
            </li>
          ))}
        </ul>
      </Section>
      <Section id="t-quota" title={t("quotaUse")} empty={tenant.quotaUse.length === 0 ? t("noQuota") : null}>
        <table className={tableClass}>
          <thead>
            <tr>
              <th scope="col" className={thClass}>
                {t("region")}
              </th>
              <th scope="col" className={thClass}>
                {t("gpuModel")}
              </th>
              <th scope="col" className={thClass}>
                {t("held")}
              </th>
              <th scope="col" className={thClass}>
                {t("nominal")}
              </th>
            </tr>
          </thead>
          <tbody>
            {tenant.quotaUse.map((q) => (
              <tr key={`${q.regionCode}/${q.gpuModelId}`}>
                <td className={tdClass}>{q.regionCode}</td>
                <td className={tdClass}>{q.gpuModelId}</td>
                <td className={tdClass}>{gpus(q.heldGpus)}</td>
                <td className={tdClass}>
                  {q.nominalGpus === null ? t("defaultQuota") : gpus(q.nominalGpus)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section
        id="t-instances"
        title={t("instances")}
        empty={tenant.instances.length === 0 ? t("noInstances") : null}
      >
        <table className={tableClass}>
          <thead>
            <tr>
              <th scope="col" className={thClass}>
                {t("name")}
              </th>
              <th scope="col" className={thClass}>
                {t("state")}
              </th>
              <th scope="col" className={thClass}>
                {t("region")}
              </th>
              <th scope="col" className={thClass}>
                {t("gpus")}
              </th>
              <th scope="col" className={thClass}>
                {t("node")}
              </th>
              <th scope="col" className={thClass}>
                {t("created")}
              </th>
            </tr>
          </thead>
          <tbody>
            {tenant.instances.map((i) => (
              <tr key={i.id}>
                <td className={tdClass}>{i.name}</td>
                <td className={tdClass}>{i.state}</td>
                <td className={tdClass}>{i.regionCode}</td>
                <td className={tdClass}>{gpus(i.gpus)}</td>
                <td className={tdClass}>
                  {i.node ? (
                    <Link href={`/admin/fleet/nodes/${i.node.id}`} className="text-orange-700 underline">
                      {i.node.name}
                    </Link>
                  ) : (
                    "—"
                  )}
                </td>
                <td className={tdClass}>{when(i.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section id="t-audit" title={t("audit")} empty={tenant.audit.length === 0 ? t("noAudit") : null}>
        <table className={tableClass}>
          <thead>
            <tr>
              <th scope="col" className={thClass}>
                {t("when")}
              </th>
              <th scope="col" className={thClass}>
                {t("actor")}
              </th>
              <th scope="col" className={thClass}>
                {t("action")}
              </th>
            </tr>
          </thead>
          <tbody>
            {tenant.audit.map((a) => (
              <tr key={a.id}>
                <td className={tdClass}>{when(a.at)}</td>
                <td className={tdClass}>{a.actor ?? "—"}</td>
                <td className={tdClass}>{a.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Link
          href={`/admin/audit?org=${encodeURIComponent(org.slug)}`}
          className="mt-2 inline-block text-sm text-orange-700 underline dark:text-orange-400"
        >
          {t("fullAudit")}
        </Link>
      </Section>
    </>
  );
}

function Section({
  id,
  title,
  empty,
  children,
}: {
  id: string;
  title: string;
  empty: string | null;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="mb-8">
      <h2 id={id} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      {empty ? <EmptyState title={empty} /> : <div className="overflow-x-auto">{children}</div>}
    </section>
  );
}

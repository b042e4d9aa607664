import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getNow, getTranslations } from "next-intl/server";
import { AuthForm } from "@/components/services/auth-form";
import { ScalingForm } from "@/components/services/scaling-form";
import { ServiceChartsLazy } from "@/components/services/service-charts-lazy";
import { serviceState } from "@/components/services/service-state";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { CopyButton } from "@/components/ui/copy-button";
import { RelativeTime } from "@/components/ui/relative-time";
import { roleAtLeast } from "@/lib/access";
import { NotFoundError } from "@/lib/core";
import { getService, SERVICE_RANGES, type ServiceRange } from "@/lib/services";
import { getOrgPageContext } from "../../org-context";
import { deleteServiceAction, setServiceAuthAction, updateServiceScalingAction } from "../actions";
import { gatewayBase } from "../gateway-url";

type Search = Record<string, string | string[] | undefined>;
const RANGES = Object.keys(SERVICE_RANGES) as ServiceRange[];

export default async function ServicePage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string; id: string }>;
  searchParams: Promise<Search>;
}) {
  const { org: slug, id } = await params;
  const sp = await searchParams;
  const wanted = Array.isArray(sp.range) ? sp.range[0] : sp.range;
  const range: ServiceRange = RANGES.includes(wanted as ServiceRange) ? (wanted as ServiceRange) : "1h";
  const { ctx, role } = await getOrgPageContext(slug);
  let detail: Awaited<ReturnType<typeof getService>>;
  try {
    detail = await getService(ctx, slug, id, range);
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
  const [t, format, now, base] = await Promise.all([
    getTranslations("Services"),
    getFormatter(),
    getNow(),
    gatewayBase(),
  ]);
  const { service: svc, stats, events, replicas, series } = detail;
  const canEdit = roleAtLeast(role, "member");
  const endpoint = `${base}/${slug}/s/${svc.name}/`;
  const curl =
    svc.spec.auth === "token"
      ? `curl -H "Authorization: Bearer $FORJA_SERVICE_TOKEN" ${endpoint}`
      : `curl ${endpoint}`;
  const ms = (v: number | null) => (v == null ? t("none") : t("ms", { value: Math.round(v) }));
  const usd = (v: number) =>
    format.number(v, { style: "currency", currency: "USD", maximumFractionDigits: 4 });
  const figures: Array<[string, string]> = [
    [t("figures.rps"), t("rps", { value: stats.requestsPerSecond })],
    [t("figures.requests"), format.number(stats.requests)],
    [t("figures.p50"), ms(stats.p50Ms)],
    [t("figures.p95"), ms(stats.p95Ms)],
    [t("figures.p99"), ms(stats.p99Ms)],
    [
      t("figures.errors"),
      t("errorsOf", { e5: stats.errors5xx, e4: stats.errors4xx, held: stats.holdTimeouts }),
    ],
    [t("figures.replicas"), t("replicasOf", { ready: detail.ready, desired: svc.desiredReplicas })],
    [t("figures.coldStarts"), format.number(stats.coldStarts)],
    [t("figures.replicaSeconds"), format.number(Math.round(stats.replicaSeconds))],
    [t("figures.cost"), usd(stats.costUsd)],
    [t("figures.costPer1000"), stats.costPer1000Usd == null ? t("none") : usd(stats.costPer1000Usd)],
  ];
  return (
    <div className="flex flex-col gap-6">
      <nav aria-label={t("breadcrumb")} className="text-sm">
        <Link href={`/${slug}/services`} className="text-orange-800 underline dark:text-orange-300">
          {t("back")}
        </Link>
      </nav>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{svc.name}</h1>
        <p className="text-sm">
          {t(`state.${serviceState({ desired: svc.desiredReplicas, ready: detail.ready })}`)} ·{" "}
          {svc.spec.instanceType} · {svc.spec.region}
        </p>
      </div>

      <section aria-labelledby="svc-endpoint" className="flex flex-col gap-2">
        <h2 id="svc-endpoint" className="text-lg font-semibold">
          {t("endpoint.title")}
        </h2>
        <p className="text-sm">{svc.spec.auth === "token" ? t("endpoint.token") : t("endpoint.public")}</p>
        <code className="break-all rounded bg-slate-100 p-2 text-sm dark:bg-slate-800">{curl}</code>
        <div>
          <CopyButton value={curl} label={t("endpoint.copy")} />
        </div>
      </section>

      <section aria-labelledby="svc-figures" className="flex flex-col gap-2">
        <h2 id="svc-figures" className="text-lg font-semibold">
          {t("figures.title")}
        </h2>
        <nav aria-label={t("figures.range")} className="flex flex-wrap gap-2 text-sm">
          {RANGES.map((r) => (
            <Link
              key={r}
              href={`/${slug}/services/${svc.id}?range=${r}`}
              aria-current={r === range ? "page" : undefined}
              className={`rounded-md border px-2 py-1 ${r === range ? "border-orange-700 font-semibold" : "border-slate-300 dark:border-slate-700"}`}
            >
              {t(`ranges.${r}`)}
            </Link>
          ))}
        </nav>
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
          {figures.map(([k, v]) => (
            <div key={k} className="flex flex-col">
              <dt className="text-slate-600 dark:text-slate-400">{k}</dt>
              <dd className="font-medium">{v}</dd>
            </div>
          ))}
        </dl>
        <ServiceChartsLazy points={series} range={range} />
      </section>

      <section aria-labelledby="svc-replicas" className="flex flex-col gap-2">
        <h2 id="svc-replicas" className="text-lg font-semibold">
          {t("replicas.title")}
        </h2>
        {replicas.length === 0 ? (
          <p className="text-sm">{t("replicas.none")}</p>
        ) : (
          <ul className="text-sm">
            {replicas.map((r) => (
              <li key={r.id}>
                {t("replicas.row", {
                  ordinal: r.ordinal,
                  state: r.ready_at && r.state === "running" ? "ready" : r.state,
                  pricing: r.pricing_model,
                })}{" "}
                <Link href={`/${slug}/instances/${r.instance_id}`} className="underline">
                  {t("replicas.instance")}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="svc-scaling" className="flex flex-col gap-2">
        <h2 id="svc-scaling" className="text-lg font-semibold">
          {t("detail.scaling")}
        </h2>
        {canEdit ? (
          <ScalingForm
            action={updateServiceScalingAction.bind(null, slug, svc.id)}
            initial={{
              minReplicas: svc.spec.minReplicas,
              maxReplicas: svc.spec.maxReplicas,
              metric: svc.spec.metric,
              target: svc.spec.target,
              scaleUpDelaySeconds: svc.spec.scaleUpDelaySeconds,
              scaleDownDelaySeconds: svc.spec.scaleDownDelaySeconds,
              scaleToZeroGraceSeconds: svc.spec.scaleToZeroGraceSeconds,
            }}
          />
        ) : (
          <p className="text-sm">
            {t("detail.scalingSummary", {
              min: svc.spec.minReplicas,
              max: svc.spec.maxReplicas,
              target: svc.spec.target,
              metric: svc.spec.metric,
            })}
          </p>
        )}
      </section>

      {canEdit ? (
        <section aria-labelledby="svc-access" className="flex flex-col gap-2">
          <h2 id="svc-access" className="text-lg font-semibold">
            {t("access.title")}
          </h2>
          <AuthForm action={setServiceAuthAction.bind(null, slug, svc.id)} current={svc.spec.auth} />
        </section>
      ) : null}

      <section aria-labelledby="svc-events" className="flex flex-col gap-2">
        <h2 id="svc-events" className="text-lg font-semibold">
          {t("detail.events")}
        </h2>
        {events.length === 0 ? (
          <p className="text-sm">{t("detail.noEvents")}</p>
        ) : (
          <ol className="flex flex-col gap-1 text-sm">
            {events.map((e, i) => (
              <li key={i} className="flex flex-wrap gap-2">
                <RelativeTime date={e.at} now={now} />
                <span>
                  {t.has(`events.${e.code}`)
                    ? t(`events.${e.code}` as "events.created", e.params as Record<string, string | number>)
                    : e.text}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>

      {canEdit ? (
        <div>
          <ConfirmAction
            trigger={t("delete.trigger")}
            title={t("delete.title", { name: svc.name })}
            description={t("delete.body")}
            confirmLabel={t("delete.confirm")}
            action={deleteServiceAction.bind(null, slug, svc.id)}
            fields={{}}
          />
        </div>
      ) : null}
    </div>
  );
}

import Link from "next/link";
import { notFound } from "next/navigation";
import { getNow, getTranslations } from "next-intl/server";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { ActionButton, EndpointControls } from "@/components/webhooks/endpoint-controls";
import { RefreshWhile } from "@/components/webhooks/refresh-while";
import { ForbiddenError, NotFoundError } from "@/lib/core";
import { getWebhookEndpoint } from "@/lib/notify";
import { getOrgPageContext } from "../../../org-context";
import {
  deleteWebhookAction,
  resendWebhookAction,
  sendTestWebhookAction,
  setWebhookEnabledAction,
} from "../actions";

export default async function WebhookEndpointPage({
  params,
}: {
  params: Promise<{ org: string; id: string }>;
}) {
  const { org: slug, id } = await params;
  // Admins only: to anyone else an endpoint is as absent as another tenant's.
  const { ctx, org } = await getOrgPageContext(slug, "admin").catch((err) => {
    if (err instanceof ForbiddenError) notFound();
    throw err;
  });
  const [t, now] = await Promise.all([getTranslations("Webhooks"), getNow()]);
  const word = t as unknown as (key: string, v?: Record<string, string | number>) => string;
  const found = await getWebhookEndpoint(ctx, slug, id).catch((err) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
  const { endpoint, deliveries } = found;
  const eventName = (type: string) => word(`event_${type.replaceAll(".", "_")}`);
  return (
    <div className="flex flex-col gap-8">
      <RefreshWhile active={deliveries.some((d) => d.status === "pending")} />
      <p>
        <Link
          href={`/${org.slug}/settings/webhooks`}
          className="text-sm text-orange-800 underline dark:text-orange-300"
        >
          ← {t("back")}
        </Link>
      </p>
      <section aria-labelledby="endpoint-heading" className="flex flex-col gap-3">
        <h2 id="endpoint-heading" className="text-lg font-semibold">
          {t("endpointHeading")}
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-medium">{t("colUrl")}</dt>
          <dd className="break-all font-mono text-xs">{endpoint.url}</dd>
          {endpoint.description ? (
            <>
              <dt className="font-medium">{t("description")}</dt>
              <dd>{endpoint.description}</dd>
            </>
          ) : null}
          <dt className="font-medium">{t("colEvents")}</dt>
          <dd>{endpoint.events.map(eventName).join(", ")}</dd>
          <dt className="font-medium">{t("format")}</dt>
          <dd>{endpoint.format === "slack" ? t("formatSlack") : t("formatStandard")}</dd>
          <dt className="font-medium">{t("colStatus")}</dt>
          <dd>{endpoint.enabled ? t("enabled") : t("disabled")}</dd>
          <dt className="font-medium">{t("secretHint")}</dt>
          <dd className="font-mono text-xs">{endpoint.secretHint}</dd>
        </dl>
        <EndpointControls
          id={endpoint.id}
          url={endpoint.url}
          enabled={endpoint.enabled}
          testAction={sendTestWebhookAction.bind(null, org.slug)}
          enableAction={setWebhookEnabledAction.bind(null, org.slug)}
          deleteAction={deleteWebhookAction.bind(null, org.slug)}
        />
      </section>
      <section aria-labelledby="deliveries-heading" className="flex flex-col gap-3">
        <h2 id="deliveries-heading" className="text-lg font-semibold">
          {t("deliveriesHeading")}
        </h2>
        {deliveries.length === 0 ? (
          <EmptyState title={t("deliveriesEmpty")} />
        ) : (
          <ul className="flex flex-col gap-2">
            {deliveries.map((d) => (
              <li key={d.id} className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
                <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
                  <span className="font-medium">{eventName(d.eventType)}</span>
                  <span>{word(`status_${d.status}`)}</span>
                  <span>
                    {t("colAttempts")}: {d.history.length}
                  </span>
                  <span>
                    {t("colResponse")}: {d.lastStatusCode ?? t("noResponse")}
                  </span>
                  <RelativeTime date={d.createdAt} now={now} />
                  {d.status === "pending" && d.history.length > 0 ? (
                    <span>{t("nextAttempt", { when: d.nextAttemptAt.toISOString().slice(11, 19) })} UTC</span>
                  ) : null}
                  <span className="font-mono text-xs text-slate-600 dark:text-slate-400">{d.id}</span>
                  {d.status === "pending" ? null : (
                    <ActionButton
                      action={resendWebhookAction.bind(null, org.slug)}
                      fields={{ deliveryId: d.id }}
                      label={t("resend")}
                      pendingLabel={t("resending")}
                      ariaLabel={t("resendLabel", { id: d.id })}
                    />
                  )}
                </div>
                <details className="mt-2">
                  <summary className="cursor-pointer text-orange-800 dark:text-orange-300">
                    {t("showAttempts")}
                  </summary>
                  <ol aria-label={t("attemptsOf", { id: d.id })} className="mt-2 flex flex-col gap-2">
                    {d.history.map((a) => (
                      <li key={a.n} className="border-l-2 border-slate-300 pl-3 dark:border-slate-600">
                        <div>
                          {t("attemptN", { n: a.n })} · {a.statusCode ?? t("noResponse")} ·{" "}
                          {t("duration", { ms: a.durationMs })} · <RelativeTime date={a.at} now={now} />
                        </div>
                        {a.error ? (
                          <div>
                            {t("attemptError")}: {a.error}
                          </div>
                        ) : null}
                        {a.responseExcerpt ? (
                          <div>
                            {t("attemptBody")}: <code className="break-all text-xs">{a.responseExcerpt}</code>
                          </div>
                        ) : null}
                      </li>
                    ))}
                  </ol>
                  <p className="mt-2 font-medium">{t("payload")}</p>
                  <pre className="overflow-x-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-800">
                    {JSON.stringify(d.payload, null, 2)}
                  </pre>
                </details>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

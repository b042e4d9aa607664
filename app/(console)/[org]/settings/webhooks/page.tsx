import Link from "next/link";
import { getNow, getTranslations } from "next-intl/server";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { CreateWebhookForm } from "@/components/webhooks/create-webhook-form";
import { roleAtLeast } from "@/lib/access";
import { listWebhookEndpoints, WEBHOOK_EVENT_TYPES } from "@/lib/notify";
import { getOrgPageContext } from "../../org-context";
import { createWebhookAction } from "./actions";

export default async function WebhooksPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { ctx, org, role } = await getOrgPageContext(slug);
  const [t, now] = await Promise.all([getTranslations("Webhooks"), getNow()]);
  const word = t as unknown as (key: string) => string;
  const admin = roleAtLeast(role, "admin");
  const endpoints = admin ? await listWebhookEndpoints(ctx, slug) : [];
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="webhooks-heading" className="flex flex-col gap-3">
        <h2 id="webhooks-heading" className="text-lg font-semibold">
          {t("heading")}
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("intro", { org: org.name })}</p>
        {admin ? null : (
          <p role="note" className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
            {t("adminsOnly")}
          </p>
        )}
      </section>
      {admin ? (
        <>
          <section aria-labelledby="webhook-create-heading" className="flex flex-col gap-3">
            <h2 id="webhook-create-heading" className="text-lg font-semibold">
              {t("createHeading")}
            </h2>
            <CreateWebhookForm
              action={createWebhookAction.bind(null, org.slug)}
              eventTypes={WEBHOOK_EVENT_TYPES}
            />
          </section>
          <section aria-labelledby="webhook-list-heading" className="flex flex-col gap-3">
            <h2 id="webhook-list-heading" className="text-lg font-semibold">
              {t("listHeading")}
            </h2>
            {endpoints.length === 0 ? (
              <EmptyState title={t("empty")} />
            ) : (
              <div className="overflow-x-auto">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">{t("listHeading")}</caption>
                  <thead>
                    <tr className="border-b border-slate-200 dark:border-slate-700">
                      <th scope="col" className="py-2 pr-3">
                        {t("colUrl")}
                      </th>
                      <th scope="col" className="py-2 pr-3">
                        {t("colEvents")}
                      </th>
                      <th scope="col" className="py-2 pr-3">
                        {t("colStatus")}
                      </th>
                      <th scope="col" className="py-2 pr-3">
                        {t("colLast")}
                      </th>
                      <th scope="col" className="py-2">
                        <span className="sr-only">{t("view")}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {endpoints.map((e) => (
                      <tr key={e.id} className="border-b border-slate-100 align-top dark:border-slate-800">
                        <td className="py-2 pr-3">
                          <span className="break-all font-mono text-xs">{e.url}</span>
                          {e.description ? (
                            <div className="text-xs text-slate-600">{e.description}</div>
                          ) : null}
                        </td>
                        <td className="py-2 pr-3">
                          {e.events.map((ev) => word(`event_${ev.replaceAll(".", "_")}`)).join(", ")}
                        </td>
                        <td className="py-2 pr-3">{e.enabled ? t("enabled") : t("disabled")}</td>
                        <td className="py-2 pr-3">
                          {e.lastDelivery ? (
                            <>
                              {word(`status_${e.lastDelivery.status}`)} ·{" "}
                              <RelativeTime date={e.lastDelivery.at} now={now} />
                            </>
                          ) : (
                            t("never")
                          )}
                        </td>
                        <td className="py-2">
                          <Link
                            href={`/${org.slug}/settings/webhooks/${e.id}`}
                            aria-label={t("viewLabel", { url: e.url })}
                            className="font-medium text-orange-800 underline dark:text-orange-300"
                          >
                            {t("view")}
                          </Link>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          <section aria-labelledby="webhook-verify-heading" className="flex flex-col gap-2">
            <h2 id="webhook-verify-heading" className="text-lg font-semibold">
              {t("verifyHeading")}
            </h2>
            <p className="text-sm text-slate-700 dark:text-slate-300">{t("verifyIntro")}</p>
          </section>
        </>
      ) : null}
    </div>
  );
}

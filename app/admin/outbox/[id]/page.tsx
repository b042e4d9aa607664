import Link from "next/link";
import { notFound } from "next/navigation";
import { getNow, getTranslations } from "next-intl/server";
import { HtmlPreview } from "@/components/admin/html-preview";
import { OutboxStatusBadge } from "@/components/admin/outbox-status";
import { PageHeader } from "@/components/admin/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { getOutboxMessage } from "@/lib/admin";
import { NotFoundError } from "@/lib/core";
import { getAdminContext } from "../../admin-context";

async function load(id: string) {
  const ctx = await getAdminContext();
  try {
    return await getOutboxMessage(ctx, id);
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
}

export default async function OutboxMessagePage({ params }: { params: Promise<{ id: string }> }) {
  const now = await getNow();
  const { id } = await params;
  const [m, t] = await Promise.all([load(id), getTranslations("Admin.outbox")]);
  const facts: Array<[string, React.ReactNode]> = [
    [t("to"), m.toAddress],
    [t("statusLabel"), <OutboxStatusBadge key="s" status={m.status} />],
    [t("attempts"), m.attempts],
    [t("created"), <RelativeTime key="c" date={m.createdAt} now={now} />],
    [t("sent"), m.sentAt ? <RelativeTime key="t" date={m.sentAt} now={now} /> : "—"],
    ...(m.status === "pending"
      ? [
          [t("nextAttempt"), <RelativeTime key="n" date={m.nextAttemptAt} now={now} />] as [
            string,
            React.ReactNode,
          ],
        ]
      : []),
    [t("lastError"), m.lastError ?? "—"],
    [t("organization"), m.orgSlug ?? "—"],
    [t("dedupeKey"), m.dedupeKey ?? "—"],
  ];
  return (
    <>
      <Link href="/admin/outbox" className="text-sm text-orange-700 underline dark:text-orange-400">
        {t("back")}
      </Link>
      <PageHeader title={m.subject} />
      <dl className="mb-6 grid max-w-3xl grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
        {facts.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="font-medium text-slate-600 dark:text-slate-400">{k}</dt>
            <dd className="break-all">{v}</dd>
          </div>
        ))}
      </dl>
      <section aria-labelledby="text-part" className="mb-6">
        <h2 id="text-part" className="mb-2 text-lg font-semibold">
          {t("textPart")}
        </h2>
        <pre className="max-w-3xl overflow-x-auto whitespace-pre-wrap rounded-md border border-slate-200 bg-slate-50 p-3 text-sm dark:border-slate-800 dark:bg-slate-900">
          {m.textBody}
        </pre>
      </section>
      <section aria-labelledby="html-part">
        <h2 id="html-part" className="mb-2 text-lg font-semibold">
          {t("htmlPart")}
        </h2>
        {m.htmlBody ? (
          <>
            <HtmlPreview
              html={m.htmlBody}
              frameTitle={t("htmlFrameTitle", { subject: m.subject })}
              showLabel={t("showPreview")}
              hideLabel={t("hidePreview")}
            />
            <details className="mt-2 max-w-3xl">
              <summary className="cursor-pointer text-sm">{t("htmlSource")}</summary>
              <pre className="mt-2 overflow-x-auto whitespace-pre-wrap break-all rounded-md border border-slate-200 bg-slate-50 p-3 text-xs dark:border-slate-800 dark:bg-slate-900">
                {m.htmlBody}
              </pre>
            </details>
          </>
        ) : (
          <p className="text-sm">{t("noHtml")}</p>
        )}
      </section>
    </>
  );
}

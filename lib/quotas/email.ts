import { IntlMessageFormat } from "intl-messageformat";
import { defaultLocale, isLocale, type Locale } from "@/i18n/config";
import type { quotaRequests } from "@/lib/db/schema";
import { renderEmail } from "@/lib/notify";
import { messagesFor } from "@/messages";

type Row = typeof quotaRequests.$inferSelect;

function baseUrl(): string {
  return (process.env.NEXTAUTH_URL ?? "http://localhost:3000").replace(/\/$/, "");
}

/** The decision email to the requester, in their language (messages: QuotaEmails). */
export function quotaDecisionEmail(
  who: { locale: string | null; orgName: string; slug: string; gpuModelName: string },
  r: Row,
): { subject: string; text: string; html: string; orgId: string } {
  const l: Locale = isLocale(who.locale) ? who.locale : defaultLocale;
  const m = messagesFor(l).QuotaEmails;
  const date = new Intl.DateTimeFormat(l, { dateStyle: "medium", timeZone: "UTC" });
  const values = {
    org: who.orgName,
    model: who.gpuModelName,
    region: r.regionCode,
    requested: r.requestedGpus,
    granted: r.grantedGpus ?? 0,
    until: r.until ? date.format(r.until) : "",
    temporary: r.until ? "yes" : "no",
  };
  const f = (src: string) => String(new IntlMessageFormat(src, l).format(values));
  const key = r.status === "denied" ? "denied" : r.status === "partial" ? "partial" : "approved";
  const paragraphs = [f(m[`${key}Body`])];
  if (r.decisionMessage) paragraphs.push(f(m.operatorSaid), r.decisionMessage);
  const content = renderEmail({
    title: f(m[`${key}Subject`]),
    paragraphs,
    action: { label: f(m.viewQuotas), url: `${baseUrl()}/${who.slug}/quotas` },
    footer: f(m.footer),
  });
  return { subject: f(m[`${key}Subject`]), ...content, orgId: r.orgId };
}

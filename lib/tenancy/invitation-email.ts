import { defaultLocale, isLocale, type Locale } from "@/i18n/config";
import type { OrgRole } from "@/lib/access";
import { type EmailMessage, renderEmail } from "@/lib/notify";
import { messagesFor } from "@/messages";

export type InvitationEmailInput = {
  to: string;
  orgId: string;
  orgName: string;
  inviterName: string;
  role: OrgRole;
  token: string;
  expiresAt: Date;
  locale?: string;
};

/** Where the console is reached from outside; links in emails must be absolute. */
export function publicBaseUrl(): string {
  return (process.env.NEXTAUTH_URL ?? "http://localhost:3000").replace(/\/$/, "");
}

export function invitationLink(token: string): string {
  return `${publicBaseUrl()}/invite/${encodeURIComponent(token)}`;
}

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => vars[key] ?? whole);
}

/**
 * The invitation email in the inviter's language (the invitee's is unknown until they sign in). The strings
 * are the catalog's (messages/<locale>/settings.json, namespace InviteEmail); renderEmail escapes them.
 */
export function invitationEmail(input: InvitationEmailInput): EmailMessage {
  const locale: Locale = isLocale(input.locale) ? input.locale : defaultLocale;
  const catalog = messagesFor(locale);
  const m = catalog.InviteEmail;
  const vars = {
    inviter: input.inviterName,
    org: input.orgName,
    role: catalog.Roles[input.role],
    date: new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(input.expiresAt),
  };
  const { text, html } = renderEmail({
    title: fill(m.title, vars),
    paragraphs: [fill(m.intro, vars), fill(m.roleLine, vars)],
    action: { label: m.action, url: invitationLink(input.token) },
    footer: `${fill(m.expires, vars)} ${m.ignore}`,
  });
  return { to: input.to, subject: fill(m.subject, vars), text, html, orgId: input.orgId };
}

import { defaultLocale, isLocale, type Locale } from "@/i18n/config";
import type { OrgRole } from "@/lib/access";
import { type EmailMessage, formatMessage, publicBaseUrl, renderEmail } from "@/lib/notify";
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

export function invitationLink(token: string): string {
  return `${publicBaseUrl()}/invite/${encodeURIComponent(token)}`;
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
  // ICU MessageFormat, as every other email's texts (the catalog strings only use {name} placeholders).
  const fill = (src: string) => formatMessage(locale, src, vars);
  const { text, html } = renderEmail({
    title: fill(m.title),
    paragraphs: [fill(m.intro), fill(m.roleLine)],
    action: { label: m.action, url: invitationLink(input.token) },
    footer: `${fill(m.expires)} ${m.ignore}`,
  });
  // The token is the secret: the outbox stores the bodies without it (lib/notify seals it until delivery).
  return {
    to: input.to,
    subject: fill(m.subject),
    text,
    html,
    orgId: input.orgId,
    secret: input.token,
  };
}

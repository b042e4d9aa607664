/**
 * One small layout for every Forja email, so domains write words, not markup. Callers pass already translated
 * strings; everything is escaped here, so user-provided values (names, organization names) cannot inject HTML.
 */
export type EmailLayout = {
  title: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Small print under the content, e.g. why the person receives this email. */
  footer?: string;
};

export type EmailContent = { text: string; html: string };

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Only absolute http(s) links go into an email; anything else (javascript:, relative paths) is a bug. */
function safeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new Error(`Email links must be http(s), got ${parsed.protocol}`);
  }
  return parsed.toString();
}

export function renderEmail(layout: EmailLayout): EmailContent {
  const url = layout.action ? safeUrl(layout.action.url) : null;
  const text = [
    layout.title,
    "",
    ...layout.paragraphs.flatMap((p) => [p, ""]),
    ...(layout.action && url ? [`${layout.action.label}: ${url}`, ""] : []),
    ...(layout.footer ? ["--", layout.footer] : []),
  ]
    .join("\n")
    .trimEnd();

  const p = (s: string) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(s)}</p>`;
  const button =
    layout.action && url
      ? `<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="background:#c2410c;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(layout.action.label)}</a></p>` +
        `<p style="margin:0 0 16px;font-size:13px;color:#475569">${escapeHtml(url)}</p>`
      : "";
  const footer = layout.footer
    ? `<p style="margin:24px 0 0;font-size:12px;color:#64748b">${escapeHtml(layout.footer)}</p>`
    : "";
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(layout.title)}</title></head>
<body style="margin:0;padding:24px;background:#f8fafc;font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#0f172a">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:8px;padding:24px">
<p style="margin:0 0 16px;font-weight:700;color:#c2410c">Forja</p>
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(layout.title)}</h1>
${layout.paragraphs.map(p).join("\n")}
${button}
${footer}
</div>
</body></html>`;
  return { text, html };
}

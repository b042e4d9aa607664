import { getTranslations } from "next-intl/server";
import type { OutboxStatus } from "@/lib/admin";

const STYLE: Record<OutboxStatus, { icon: string; className: string }> = {
  pending: { icon: "…", className: "bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200" },
  sent: { icon: "✓", className: "bg-green-50 text-green-900 dark:bg-green-950 dark:text-green-200" },
  failed: { icon: "✕", className: "bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-200" },
  logged: { icon: "▤", className: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200" },
};

/** Status as a word with an icon; colour is only a help. */
export async function OutboxStatusBadge({ status }: { status: OutboxStatus }) {
  const t = await getTranslations("Admin.outbox.status");
  const s = STYLE[status];
  return (
    <span className={`inline-flex items-center gap-1 rounded px-2 py-0.5 text-xs font-medium ${s.className}`}>
      <span aria-hidden="true">{s.icon}</span>
      {t(status)}
    </span>
  );
}

"use client";

import { useRouter } from "next/navigation";

export function OrgSwitcher({
  current,
  orgs,
  label,
}: {
  current: string;
  orgs: Array<{ slug: string; name: string }>;
  label: string;
}) {
  const router = useRouter();
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="sr-only">{label}</span>
      <select
        aria-label={label}
        value={current}
        onChange={(e) => router.push(`/${e.target.value}/catalog`)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
      >
        {orgs.map((o) => (
          <option key={o.slug} value={o.slug}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}

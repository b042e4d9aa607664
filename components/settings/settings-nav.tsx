"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** The settings sections as tabs-like links; the current one is marked for assistive technology too. */
export function SettingsNav({
  label,
  items,
}: {
  label: string;
  items: Array<{ href: string; label: string }>;
}) {
  const pathname = usePathname();
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800">
        {items.map((item, i) => {
          // The first item (general) is the settings root; it is current only on exactly that path.
          const active = i === 0 ? pathname === item.href : pathname.startsWith(item.href);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? "page" : undefined}
                className={`-mb-px block border-b-2 px-3 py-2 text-sm ${
                  active
                    ? "border-orange-700 font-semibold text-orange-800 dark:border-orange-400 dark:text-orange-300"
                    : "border-transparent text-slate-700 hover:border-slate-300 dark:text-slate-300"
                }`}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** The admin side navigation; "/admin" (overview) is current only on itself, not on every admin page. */
export function AdminNav({ items }: { items: Array<{ href: string; label: string }> }) {
  const pathname = usePathname();
  return (
    <ul className="flex flex-row flex-wrap gap-1 md:flex-col">
      {items.map((item) => {
        const active =
          item.href === "/admin"
            ? pathname === "/admin"
            : pathname === item.href || pathname.startsWith(`${item.href}/`);
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={active ? "page" : undefined}
              className={`block rounded-md px-3 py-2 text-sm ${
                active
                  ? "bg-orange-50 font-semibold text-orange-800 dark:bg-slate-800 dark:text-orange-300"
                  : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
              }`}
            >
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

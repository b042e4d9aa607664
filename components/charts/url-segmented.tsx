"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";

type Option = { value: string; label: string };

type Props = {
  legend: string;
  /** Search parameter the choice is kept in, so it is shareable and the back button undoes it. */
  param: string;
  value: string;
  options: Option[];
};

/**
 * A segmented control made of links that rewrite one search parameter and keep the others. Links rather than
 * buttons: the choice is part of the URL, works before hydration and opens in a new tab.
 */
export function UrlSegmented({ legend, param, value, options }: Props) {
  const pathname = usePathname();
  const search = useSearchParams();
  const hrefFor = (v: string) => {
    const next = new URLSearchParams(search?.toString());
    next.set(param, v);
    return `${pathname}?${next.toString()}`;
  };
  return (
    <fieldset className="flex items-center gap-2">
      <legend className="float-left mr-2 text-xs text-slate-600 dark:text-slate-400">{legend}</legend>
      <ul className="flex overflow-hidden rounded-md border border-slate-300 text-sm dark:border-slate-700">
        {options.map((o) => {
          const active = o.value === value;
          return (
            <li key={o.value} className="border-l border-slate-300 first:border-l-0 dark:border-slate-700">
              <Link
                href={hrefFor(o.value)}
                scroll={false}
                aria-current={active ? "true" : undefined}
                className={`block px-2.5 py-1 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-orange-600 ${
                  active
                    ? "bg-orange-700 font-semibold text-white"
                    : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
                }`}
              >
                {o.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

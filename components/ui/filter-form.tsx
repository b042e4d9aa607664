"use client";

import { usePathname, useRouter } from "next/navigation";
import type { FormEvent, ReactNode } from "react";
import { Button } from "./button";

/**
 * A list's filters as a plain GET form, so they work before hydration and without JavaScript; once hydrated,
 * a change applies at once through the router instead of a full reload, and `clearLabel` adds a button that
 * drops them all. The fields are the caller's children, rendered on the server: only this wrapper is client
 * code (issue 13's 150 kB first-load budget).
 */
export function FilterForm({
  label,
  clearLabel,
  className,
  children,
}: {
  label: string;
  clearLabel?: string;
  className?: string;
  children: ReactNode;
}) {
  const router = useRouter();
  const pathname = usePathname();
  function apply(form: HTMLFormElement) {
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === "string" && v) params.set(k, v);
    const qs = params.toString();
    router.push(qs ? `${pathname}?${qs}` : pathname);
  }
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    apply(e.currentTarget);
  }
  return (
    <form
      method="get"
      onSubmit={onSubmit}
      onChange={(e) => apply(e.currentTarget)}
      aria-label={label}
      className={className}
    >
      {children}
      {clearLabel ? (
        <Button type="button" variant="ghost" onClick={() => router.push(pathname)}>
          {clearLabel}
        </Button>
      ) : null}
    </form>
  );
}

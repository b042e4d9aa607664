"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

const ONE_YEAR = 60 * 60 * 24 * 365;

/**
 * A pressed/not-pressed "Dark theme" button. The class on <html> flips at once and the cookie (read by the
 * root layout on the next render) is written in the same click, so a reload right after keeps the choice.
 */
export function ThemeToggle({ initial }: { initial: "light" | "dark" }) {
  const t = useTranslations("Shell");
  const [dark, setDark] = useState(initial === "dark");
  function toggle() {
    const next = !dark;
    setDark(next);
    document.documentElement.classList.toggle("dark", next);
    // biome-ignore lint/suspicious/noDocumentCookie: a synchronous write is the point; CookieStore is async and not in every browser.
    document.cookie = `forja_theme=${next ? "dark" : "light"}; path=/; max-age=${ONE_YEAR}; samesite=lax`;
  }
  return (
    <button
      type="button"
      aria-pressed={dark}
      onClick={toggle}
      className="flex items-center gap-1 rounded-md px-2 py-1 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-orange-600 dark:hover:bg-slate-800"
    >
      <span aria-hidden="true">{dark ? "☾" : "☀"}</span>
      {t("darkTheme")}
    </button>
  );
}

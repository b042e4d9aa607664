"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { setThemeAction } from "./preferences-actions";

/** A pressed/not-pressed "Dark theme" button; the class on <html> flips at once, the cookie keeps it. */
export function ThemeToggle({ initial }: { initial: "light" | "dark" }) {
  const t = useTranslations("Shell");
  const router = useRouter();
  const [dark, setDark] = useState(initial === "dark");
  const [, startTransition] = useTransition();
  function toggle() {
    const next = !dark;
    setDark(next);
    document.documentElement.classList.toggle("dark", next);
    startTransition(async () => {
      await setThemeAction(next ? "dark" : "light");
      router.refresh();
    });
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

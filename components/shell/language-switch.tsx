"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useTransition } from "react";
import { setLocaleAction } from "./preferences-actions";

// Each language is named in itself, so a person who cannot read the current one still finds theirs.
const LANGUAGES = [
  { code: "en", label: "English" },
  { code: "es", label: "Español" },
] as const;

export function LanguageSwitch() {
  const t = useTranslations("Shell");
  const locale = useLocale();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <fieldset aria-busy={pending} className="flex items-center gap-1 text-sm">
      <legend className="sr-only">{t("language")}</legend>
      {LANGUAGES.map((l) => (
        <button
          key={l.code}
          type="button"
          lang={l.code}
          aria-pressed={locale === l.code}
          disabled={pending}
          onClick={() =>
            startTransition(async () => {
              await setLocaleAction(l.code);
              router.refresh();
            })
          }
          className="rounded-md px-2 py-1 aria-pressed:bg-slate-200 aria-pressed:font-semibold hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-orange-600 dark:aria-pressed:bg-slate-700 dark:hover:bg-slate-800"
        >
          {l.label}
        </button>
      ))}
    </fieldset>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, type ReactNode, useState } from "react";
import { MAX_COMPARE } from "@/lib/catalog/options";

const boxes = (form: HTMLFormElement) =>
  Array.from(form.querySelectorAll<HTMLInputElement>('input[type="checkbox"][name="o"]'));

/**
 * The results as one GET form to the compare page: every row's checkbox submits `o=<offering>`. Without
 * JavaScript the compare page keeps the first four; with it, a fifth tick is undone and the live region says
 * why, and the count of picked offerings is announced as it changes.
 */
export function CompareForm({ action, children }: { action: string; children: ReactNode }) {
  const t = useTranslations("Catalog");
  const [picked, setPicked] = useState(0);
  const [full, setFull] = useState(false);

  function onChange(e: FormEvent<HTMLFormElement>) {
    const target = e.target as HTMLInputElement;
    if (target.name !== "o") return;
    let count = boxes(e.currentTarget).filter((b) => b.checked).length;
    if (count > MAX_COMPARE && target.checked) {
      target.checked = false;
      count -= 1;
      setFull(true);
    } else setFull(false);
    setPicked(count);
  }

  return (
    <form action={action} method="get" onChange={onChange} className="flex flex-col gap-3">
      {children}
      <div className="sticky bottom-0 flex flex-wrap items-center gap-3 border-t border-slate-200 bg-white/95 py-3 dark:border-slate-800 dark:bg-slate-950/95">
        <button
          type="submit"
          className="rounded-md border border-orange-700 px-3 py-1.5 text-sm font-medium text-orange-800 hover:bg-orange-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600 dark:text-orange-300 dark:hover:bg-slate-900"
        >
          {t("compareSubmit")}
        </button>
        <p aria-live="polite" className="text-sm text-slate-700 dark:text-slate-300">
          {full
            ? t("compareFull", { max: MAX_COMPARE })
            : t("comparePicked", { count: picked, max: MAX_COMPARE })}
        </p>
      </div>
    </form>
  );
}

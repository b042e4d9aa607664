"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";

/** A new service token, shown once (only its hash is kept), with a copy button; used at creation and on change. */
export function TokenOnce({
  heading,
  token,
  children,
}: {
  heading: string;
  token: string;
  children?: ReactNode;
}) {
  const t = useTranslations("Services.form");
  return (
    <div role="status" className="flex max-w-2xl flex-col gap-3 rounded-md border border-green-600 p-4">
      <h2 className="text-lg font-semibold">{heading}</h2>
      <p className="text-sm">{t("tokenOnce")}</p>
      <code className="break-all rounded bg-slate-100 p-2 text-sm dark:bg-slate-800">{token}</code>
      <div className="flex flex-wrap gap-3">
        <CopyButton value={token} label={t("copyToken")} />
        {children}
      </div>
    </div>
  );
}

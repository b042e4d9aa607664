"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/** Copies a value and says so in a live region (the button's name names what it copies). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const t = useTranslations("Instances");
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setStatus("copied");
    } catch {
      setStatus("failed");
    }
  }
  return (
    <span className="inline-flex items-center gap-2">
      <Button type="button" variant="secondary" className="px-2 py-1 text-xs" onClick={copy}>
        {label}
      </Button>
      <span role="status" aria-live="polite" className="text-xs text-slate-600 dark:text-slate-400">
        {status === "copied" ? t("connection.copied") : status === "failed" ? t("connection.copyFailed") : ""}
      </span>
    </span>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "./button";

/**
 * Copies a value to the clipboard and says so in a live region (the button's look alone would not). The
 * button's name says what it copies; the caller may word the outcome for its context ("Token copied…").
 */
export function CopyButton({
  value,
  label,
  copiedText,
  failedText,
  compact = false,
}: {
  value: string;
  label: string;
  copiedText?: string;
  failedText?: string;
  /** A small button beside a value in a list, rather than a form's button. */
  compact?: boolean;
}) {
  const t = useTranslations("Common");
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setStatus("copied");
    } catch {
      setStatus("failed");
    }
  }
  const said =
    status === "copied"
      ? (copiedText ?? t("copied"))
      : status === "failed"
        ? (failedText ?? t("copyFailed"))
        : "";
  return (
    <span className={`inline-flex flex-wrap items-center ${compact ? "gap-2" : "gap-3"}`}>
      <Button
        type="button"
        variant="secondary"
        className={compact ? "px-2 py-1 text-xs" : undefined}
        onClick={copy}
      >
        {label}
      </Button>
      <span
        role="status"
        aria-live="polite"
        className={compact ? "text-xs text-slate-600 dark:text-slate-400" : "text-sm"}
      >
        {said}
      </span>
    </span>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/** Copies text to the clipboard and says so in a live region (the button's look alone would not). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const t = useTranslations("ApiTokens");
  const [result, setResult] = useState<"copied" | "copyFailed" | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setResult("copied");
    } catch {
      setResult("copyFailed");
    }
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button type="button" variant="secondary" onClick={copy}>
        {label}
      </Button>
      <p role="status" aria-live="polite" className="text-sm">
        {result ? t(result) : null}
      </p>
    </div>
  );
}

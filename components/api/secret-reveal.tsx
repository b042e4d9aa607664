"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { CurlExample } from "./curl-example";

/**
 * The new token, shown once: focus moves here so a screen reader hears the warning, the token sits in a
 * read-only field (select-all on focus), with a copy button and a ready-to-run curl line.
 */
export function SecretReveal({
  secret,
  curl,
  onDone,
  namespace = "ApiTokens",
}: {
  secret: string;
  /** A ready-to-run command using the secret, when there is one (an API token's). */
  curl?: string;
  onDone: () => void;
  /** Where the texts are worded: secretHeading, secretWarning, secretLabel, copy, copied, copyFailed, tryIt, dismiss. */
  namespace?: "ApiTokens" | "Webhooks";
}) {
  const t = useTranslations(namespace) as unknown as (key: string) => string;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-md border-2 border-amber-600 p-4 dark:border-amber-500"
    >
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="text-base font-semibold">
        {t("secretHeading")}
      </h3>
      <p className="text-sm">
        <span aria-hidden="true">⚠ </span>
        {t("secretWarning")}
      </p>
      <div className="flex flex-col gap-1">
        <label htmlFor="new-token-secret" className="text-sm font-medium">
          {t("secretLabel")}
        </label>
        <input
          id="new-token-secret"
          readOnly
          value={secret}
          onFocus={(e) => e.currentTarget.select()}
          className="rounded-md border border-slate-300 px-3 py-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-900"
        />
      </div>
      <CopyButton value={secret} label={t("copy")} copiedText={t("copied")} failedText={t("copyFailed")} />
      {curl ? <CurlExample label={t("tryIt")} command={curl} /> : null}
      <div>
        <Button type="button" onClick={onDone}>
          {t("dismiss")}
        </Button>
      </div>
    </section>
  );
}

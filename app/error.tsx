"use client";

import { useTranslations } from "next-intl";
import { useEffect } from "react";

/** Unexpected errors: a generic message with the digest (request id) — never a stack or SQL text. */
export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  const t = useTranslations("Common");
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <main id="main" className="mx-auto max-w-lg px-4 py-16">
      <h1 className="text-2xl font-semibold">{t("errorTitle")}</h1>
      {error.digest ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">ID: {error.digest}</p>
      ) : null}
      <button
        type="button"
        onClick={reset}
        className="mt-4 rounded-md bg-orange-700 px-3 py-2 text-sm font-medium text-white hover:bg-orange-800"
      >
        {t("tryAgain")}
      </button>
    </main>
  );
}

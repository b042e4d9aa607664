import { getTranslations } from "next-intl/server";
import { StreamFallback } from "@/components/shell/stream-fallback";

/**
 * Only the list has a loading state (hence the (list) group): a Suspense boundary above the instance page would
 * start the response before the page knows the instance exists, and another organization's id would then get
 * the not-found UI with status 200 instead of a 404.
 */
export default async function InstancesLoading() {
  const t = await getTranslations("Common");
  return (
    <StreamFallback role="status" aria-live="polite" className="flex flex-col gap-3">
      <span className="sr-only">{t("loading")}</span>
      <div aria-hidden className="h-8 w-48 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div aria-hidden className="h-10 w-full animate-pulse rounded bg-slate-100 dark:bg-slate-900" />
      {[0, 1, 2, 3, 4].map((i) => (
        <div
          key={i}
          aria-hidden
          className="h-9 w-full animate-pulse rounded bg-slate-100 dark:bg-slate-900"
        />
      ))}
    </StreamFallback>
  );
}

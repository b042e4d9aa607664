import { getTranslations } from "next-intl/server";
import { StreamFallback } from "@/components/shell/stream-fallback";

/** What a cost page shows while its numbers are computed: announced once, shaped like the page. */
export async function PageSkeleton({ label }: { label: string }) {
  const t = await getTranslations("Costs");
  return (
    <StreamFallback role="status" aria-live="polite" className="flex flex-col gap-4">
      <span className="sr-only">{t(label)}</span>
      <div aria-hidden className="h-8 w-56 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div aria-hidden className="grid gap-4 sm:grid-cols-2">
        <div className="h-24 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-900" />
        <div className="h-24 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-900" />
      </div>
      <div aria-hidden className="h-20 w-full animate-pulse rounded-lg bg-slate-100 dark:bg-slate-900" />
      <div aria-hidden className="h-72 w-full animate-pulse rounded-lg bg-slate-100 dark:bg-slate-900" />
    </StreamFallback>
  );
}

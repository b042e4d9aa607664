import { useTranslations } from "next-intl";

/** Placeholder while a chart's data loads; aria-busy tells assistive tech the region is still filling in. */
export function ChartSkeleton({ height = 240 }: { height?: number }) {
  const t = useTranslations("Charts");
  return (
    <div aria-busy="true" aria-live="polite" className="flex flex-col gap-2">
      <span className="sr-only">{t("loading")}</span>
      <div
        className="w-full animate-pulse rounded-md bg-slate-100 motion-reduce:animate-none dark:bg-slate-800"
        style={{ height }}
      />
      <div className="h-4 w-1/2 animate-pulse rounded bg-slate-100 motion-reduce:animate-none dark:bg-slate-800" />
    </div>
  );
}

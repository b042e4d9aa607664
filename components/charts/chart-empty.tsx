import type { ReactNode } from "react";

/** What a chart shows before there is anything to draw: a sentence that says when data will appear. */
export function ChartEmpty({ children, height = 160 }: { children: ReactNode; height?: number }) {
  return (
    <div
      className="flex items-center justify-center rounded-md border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400"
      style={{ minHeight: height }}
    >
      <p>{children}</p>
    </div>
  );
}

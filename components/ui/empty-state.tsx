import type { ReactNode } from "react";

/** Shown instead of an empty list or table: says what is (not) there and what to do next. */
export function EmptyState({
  title,
  body,
  children,
}: {
  title: string;
  body?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
      <p className="font-medium">{title}</p>
      {body ? <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{body}</p> : null}
      {children ? <div className="mt-3 flex flex-wrap justify-center gap-2">{children}</div> : null}
    </div>
  );
}

import type { ReactNode } from "react";

export function PageHeader({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold">{title}</h1>
        {description && (
          <p className="mt-1 max-w-2xl text-sm text-slate-600 dark:text-slate-400">{description}</p>
        )}
      </div>
      {children}
    </div>
  );
}

/** Shown instead of an empty table: says what is (not) there and what to do next. */
export function EmptyState({ title, body }: { title: string; body?: string }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
      <p className="font-medium">{title}</p>
      {body && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{body}</p>}
    </div>
  );
}

export const tableClass = "w-full border-collapse text-left text-sm";
export const thClass = "border-b border-slate-200 px-3 py-2 font-semibold dark:border-slate-700";
export const tdClass = "border-b border-slate-100 px-3 py-2 align-top dark:border-slate-800";

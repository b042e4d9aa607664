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

/** The console's one empty state, re-exported beside the admin table classes it is used with. */
export { EmptyState } from "@/components/ui/empty-state";

export const tableClass = "w-full border-collapse text-left text-sm";
export const thClass = "border-b border-slate-200 px-3 py-2 font-semibold dark:border-slate-700";
export const tdClass = "border-b border-slate-100 px-3 py-2 align-top dark:border-slate-800";

/** A table's column headers, one per label. */
export function HeaderRow({ labels }: { labels: string[] }) {
  return (
    <thead>
      <tr>
        {labels.map((label) => (
          <th key={label} scope="col" className={thClass}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

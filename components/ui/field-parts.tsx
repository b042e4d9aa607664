import type { ReactNode } from "react";

/**
 * The wiring every form control shares: a hint and the errors, announced and tied to the control by
 * aria-describedby. Ids follow the control's id: `<id>-hint`, `<id>-error`.
 */
export function describedBy(id: string, hint: boolean, invalid: boolean): string | undefined {
  return [hint ? `${id}-hint` : null, invalid ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

export const controlClass =
  "rounded-md border px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-orange-600 bg-white dark:bg-slate-900";

export function borderClass(invalid: boolean): string {
  return invalid ? "border-red-600" : "border-slate-300 dark:border-slate-700";
}

export function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  return (
    <div id={`${id}-error`} aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
      {errors?.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

export function FieldHint({ id, hint }: { id: string; hint?: ReactNode }) {
  return hint ? (
    <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
      {hint}
    </p>
  ) : null;
}

import type { InputHTMLAttributes, ReactNode } from "react";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  name: string;
  label: ReactNode;
  errors?: string[];
  hint?: ReactNode;
};

/** A labelled input whose error messages are announced and tied to it with aria-describedby. */
export function Field({ name, label, errors, hint, id, className, ...rest }: FieldProps) {
  const inputId = id ?? `field-${name}`;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const invalid = Boolean(errors?.length);
  const describedBy = [hint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={inputId}
        name={name}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={`rounded-md border px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-orange-600 dark:bg-slate-900 ${
          invalid ? "border-red-600" : "border-slate-300 dark:border-slate-700"
        } ${className ?? ""}`}
        {...rest}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      <div id={errorId} aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
        {errors?.map((e) => (
          <p key={e}>{e}</p>
        ))}
      </div>
    </div>
  );
}

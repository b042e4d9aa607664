import type { SelectHTMLAttributes } from "react";

type Props = SelectHTMLAttributes<HTMLSelectElement> & {
  name: string;
  label: string;
  options: Array<{ value: string; label: string }>;
  /** An empty first option ("Choose…"), so nothing is picked by accident. */
  placeholder?: string;
  errors?: string[];
  hint?: string;
};

/** A labelled select whose errors are announced and tied to it, like components/ui/field for inputs. */
export function SelectField({ name, label, options, placeholder, errors, hint, id, ...rest }: Props) {
  const selectId = id ?? `field-${name}`;
  const invalid = Boolean(errors?.length);
  const describedBy =
    [hint ? `${selectId}-hint` : null, invalid ? `${selectId}-error` : null].filter(Boolean).join(" ") ||
    undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={selectId} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={selectId}
        name={name}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={`rounded-md border px-3 py-2 text-sm dark:bg-slate-900 ${
          invalid ? "border-red-600" : "border-slate-300 dark:border-slate-700"
        }`}
        {...rest}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={`${selectId}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      <div id={`${selectId}-error`} aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
        {errors?.map((e) => (
          <p key={e}>{e}</p>
        ))}
      </div>
    </div>
  );
}

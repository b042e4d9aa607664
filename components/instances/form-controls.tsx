import type { ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

/** Wiring shared by the launch form's controls: label, hint, and errors announced and tied by aria-describedby. */
function describedBy(id: string, hint: boolean, invalid: boolean): string | undefined {
  return [hint ? `${id}-hint` : null, invalid ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

const CONTROL =
  "rounded-md border px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-orange-600 bg-white dark:bg-slate-900";

export function FieldErrorsText({ id, errors }: { id: string; errors?: string[] }) {
  return (
    <div id={`${id}-error`} aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
      {errors?.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

function Hint({ id, hint }: { id: string; hint?: ReactNode }) {
  return hint ? (
    <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
      {hint}
    </p>
  ) : null;
}

export function SelectField({
  name,
  label,
  errors,
  hint,
  children,
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & {
  name: string;
  label: ReactNode;
  errors?: string[];
  hint?: ReactNode;
}) {
  const id = `field-${name}`;
  const invalid = Boolean(errors?.length);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        name={name}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(id, Boolean(hint), invalid)}
        className={`${CONTROL} ${invalid ? "border-red-600" : "border-slate-300 dark:border-slate-700"}`}
        {...rest}
      >
        {children}
      </select>
      <Hint id={id} hint={hint} />
      <FieldErrorsText id={id} errors={errors} />
    </div>
  );
}

export function TextAreaField({
  name,
  label,
  errors,
  hint,
  ...rest
}: TextareaHTMLAttributes<HTMLTextAreaElement> & {
  name: string;
  label: ReactNode;
  errors?: string[];
  hint?: ReactNode;
}) {
  const id = `field-${name}`;
  const invalid = Boolean(errors?.length);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        rows={3}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(id, Boolean(hint), invalid)}
        className={`${CONTROL} font-mono ${invalid ? "border-red-600" : "border-slate-300 dark:border-slate-700"}`}
        {...rest}
      />
      <Hint id={id} hint={hint} />
      <FieldErrorsText id={id} errors={errors} />
    </div>
  );
}

/** A radio group as a fieldset; its errors are tied to the group. */
export function RadioGroup<V extends string>({
  name,
  legend,
  options,
  value,
  onChange,
  errors,
}: {
  name: string;
  legend: ReactNode;
  options: Array<{ value: V; label: ReactNode; hint?: ReactNode; disabled?: boolean }>;
  value: V;
  onChange: (v: V) => void;
  errors?: string[];
}) {
  const id = `field-${name}`;
  const invalid = Boolean(errors?.length);
  return (
    <fieldset aria-describedby={invalid ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="mt-1 flex flex-wrap gap-2">
        {options.map((o) => (
          <label
            key={o.value}
            className={`flex cursor-pointer items-start gap-2 rounded-md border px-3 py-2 text-sm has-[:checked]:border-orange-700 has-[:checked]:bg-orange-50 dark:has-[:checked]:bg-slate-800 ${
              o.disabled ? "cursor-not-allowed opacity-60" : ""
            } border-slate-300 dark:border-slate-700`}
          >
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              disabled={o.disabled}
              onChange={() => onChange(o.value)}
              className="mt-0.5 accent-orange-700"
            />
            <span className="flex flex-col">
              <span className="font-medium">{o.label}</span>
              {o.hint ? <span className="text-xs text-slate-600 dark:text-slate-400">{o.hint}</span> : null}
            </span>
          </label>
        ))}
      </div>
      <FieldErrorsText id={id} errors={errors} />
    </fieldset>
  );
}

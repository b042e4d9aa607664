import type { ReactNode } from "react";
import { FieldErrors } from "./field-parts";

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
      <FieldErrors id={id} errors={errors} />
    </fieldset>
  );
}

import type { ReactNode, SelectHTMLAttributes } from "react";
import { borderClass, controlClass, describedBy, FieldErrors, FieldHint } from "./field-parts";

type Props = SelectHTMLAttributes<HTMLSelectElement> & {
  name: string;
  label: ReactNode;
  /** The choices; or pass <option>s as children (e.g. grouped ones). */
  options?: Array<{ value: string; label: string }>;
  /** An empty first option ("Choose…"), so nothing is picked by accident. */
  placeholder?: string;
  errors?: string[];
  hint?: ReactNode;
};

/** A labelled select whose errors are announced and tied to it, like Field for inputs. */
export function SelectField({
  name,
  label,
  options,
  placeholder,
  errors,
  hint,
  id,
  children,
  ...rest
}: Props) {
  const selectId = id ?? `field-${name}`;
  const invalid = Boolean(errors?.length);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={selectId} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={selectId}
        name={name}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(selectId, Boolean(hint), invalid)}
        className={`${controlClass} ${borderClass(invalid)}`}
        {...rest}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        {children}
      </select>
      <FieldHint id={selectId} hint={hint} />
      <FieldErrors id={selectId} errors={errors} />
    </div>
  );
}

import type { InputHTMLAttributes, ReactNode } from "react";
import { borderClass, controlClass, describedBy, FieldErrors, FieldHint } from "./field-parts";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  name: string;
  label: ReactNode;
  errors?: string[];
  hint?: ReactNode;
};

/** A labelled input whose error messages are announced and tied to it with aria-describedby. */
export function Field({ name, label, errors, hint, id, className, ...rest }: FieldProps) {
  const inputId = id ?? `field-${name}`;
  const invalid = Boolean(errors?.length);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={inputId}
        name={name}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(inputId, Boolean(hint), invalid)}
        className={`${controlClass} ${borderClass(invalid)} ${className ?? ""}`}
        {...rest}
      />
      <FieldHint id={inputId} hint={hint} />
      <FieldErrors id={inputId} errors={errors} />
    </div>
  );
}

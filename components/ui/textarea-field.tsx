import type { ReactNode, TextareaHTMLAttributes } from "react";
import { borderClass, controlClass, describedBy, FieldErrors, FieldHint } from "./field-parts";

/** A labelled multi-line input (monospace: commands, environment lines), wired like Field. */
export function TextAreaField({
  name,
  label,
  errors,
  hint,
  id,
  ...rest
}: TextareaHTMLAttributes<HTMLTextAreaElement> & {
  name: string;
  label: ReactNode;
  errors?: string[];
  hint?: ReactNode;
}) {
  const fieldId = id ?? `field-${name}`;
  const invalid = Boolean(errors?.length);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={fieldId} className="text-sm font-medium">
        {label}
      </label>
      <textarea
        id={fieldId}
        name={name}
        rows={3}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(fieldId, Boolean(hint), invalid)}
        className={`${controlClass} font-mono ${borderClass(invalid)}`}
        {...rest}
      />
      <FieldHint id={fieldId} hint={hint} />
      <FieldErrors id={fieldId} errors={errors} />
    </div>
  );
}

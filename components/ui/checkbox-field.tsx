import type { ReactNode } from "react";
import { describedBy, FieldErrors, FieldHint } from "./field-parts";

/**
 * A checkbox with its label, hint and errors beside it (ids `<id>-hint`, `<id>-error`, tied by
 * aria-describedby). Unchecked sends nothing, checked sends "on".
 */
export function CheckboxField({
  id,
  name,
  label,
  hint,
  errors,
  defaultChecked,
}: {
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: string[];
  defaultChecked?: boolean;
}) {
  const invalid = Boolean(errors?.length);
  return (
    <div className="flex items-start gap-2 text-sm">
      <input
        id={id}
        type="checkbox"
        name={name}
        defaultChecked={defaultChecked}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(id, Boolean(hint), invalid)}
        className="mt-0.5 size-4 accent-orange-700"
      />
      <div className="flex flex-col">
        <label htmlFor={id} className="font-medium">
          {label}
        </label>
        <FieldHint id={id} hint={hint} />
        <FieldErrors id={id} errors={errors} />
      </div>
    </div>
  );
}

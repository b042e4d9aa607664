"use client";

import { useTranslations } from "next-intl";
import { type ReactNode, useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormMessage } from "@/components/ui/form-message";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";

/**
 * A destructive action behind a confirmation dialog. The trigger opens the dialog with Cancel focused (the
 * safe choice); confirming posts the hidden fields to the action and shows its error inside the dialog.
 */
export function ConfirmAction({
  trigger,
  triggerLabel,
  title,
  description,
  confirmLabel,
  action,
  fields,
  variant = "danger",
  children,
}: {
  trigger: ReactNode;
  /** Accessible name of the trigger when its visible text is ambiguous in a list ("Remove Max Member"). */
  triggerLabel?: string;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  action: FormAction<unknown>;
  fields: Record<string, string>;
  variant?: "danger" | "primary";
  /** Inputs the person fills in the dialog (a reason), given the action's field errors. */
  children?: (fieldErrors: Record<string, string[]> | undefined) => ReactNode;
}) {
  const t = useTranslations("Common");
  const dialogRef = useRef<HTMLDialogElement>(null);
  const { state, formAction, onSubmit, pending, error, fieldErrors } = useActionForm(action);
  useEffect(() => {
    if (state?.ok) dialogRef.current?.close();
  }, [state]);
  return (
    <>
      <Button
        type="button"
        variant="secondary"
        aria-label={triggerLabel}
        aria-haspopup="dialog"
        onClick={() => dialogRef.current?.showModal()}
      >
        {trigger}
      </Button>
      <Dialog dialogRef={dialogRef} title={title} description={description}>
        <form action={formAction} onSubmit={onSubmit} className="flex flex-col gap-3">
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {children?.(fieldErrors)}
          <FormMessage message={error} />
          {/* Cancel first and autofocused: in a confirmation dialog the safe choice should have focus. */}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" autoFocus onClick={() => dialogRef.current?.close()}>
              {t("cancel")}
            </Button>
            <Button type="submit" variant={variant} disabled={pending} aria-busy={pending}>
              {confirmLabel}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { type ReactNode, type RefObject, useId } from "react";
import { Button } from "@/components/ui/button";

/**
 * A confirmation on the native <dialog>: showModal() makes the rest of the page inert so focus stays inside,
 * Escape closes it, and the browser gives focus back to the control that opened it. Cancel has focus first
 * because it is the safe choice.
 */
export function ConfirmDialog({
  dialogRef,
  title,
  description,
  confirmLabel,
  pendingLabel,
  pending,
  error,
  onConfirm,
  onClose,
  children,
}: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  error?: string;
  onConfirm: () => void;
  /** Called however it closes (Cancel, Escape, or after success). */
  onClose?: () => void;
  children?: ReactNode;
}) {
  const t = useTranslations("Instances");
  const titleId = useId();
  const descId = useId();
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={descId}
      onClose={onClose}
      className="m-auto w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        {title}
      </h2>
      <div id={descId} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        {description}
      </div>
      {children}
      <div role="alert" aria-live="assertive" className="mt-3 min-h-5 text-sm text-red-700 dark:text-red-400">
        {error}
      </div>
      <div className="mt-4 flex justify-end gap-2">
        <Button type="button" variant="secondary" autoFocus onClick={() => dialogRef.current?.close()}>
          {t("dialog.cancel")}
        </Button>
        <Button type="button" variant="danger" disabled={pending} aria-busy={pending} onClick={onConfirm}>
          {pending ? pendingLabel : confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}

"use client";

import { useTranslations } from "next-intl";
import type { ReactNode, RefObject } from "react";
import { Button } from "./button";
import { Dialog } from "./dialog";

/**
 * A confirmation whose caller runs the action itself (a client mutation, not a form post): on the one Dialog,
 * with Cancel focused first because it is the safe choice, and the error announced inside.
 */
export function ConfirmDialog({
  dialogRef,
  title,
  description,
  confirmLabel,
  pendingLabel,
  cancelLabel,
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
  /** The safe choice's words ("Keep it"); "Cancel" when absent. */
  cancelLabel?: string;
  pending: boolean;
  error?: string;
  onConfirm: () => void;
  onClose?: () => void;
  children?: ReactNode;
}) {
  const t = useTranslations("Common");
  return (
    <Dialog dialogRef={dialogRef} title={title} description={description} onClose={onClose}>
      {children}
      <div role="alert" aria-live="assertive" className="mt-3 min-h-5 text-sm text-red-700 dark:text-red-400">
        {error}
      </div>
      <div className="mt-4 flex justify-end gap-2">
        <Button type="button" variant="secondary" autoFocus onClick={() => dialogRef.current?.close()}>
          {cancelLabel ?? t("cancel")}
        </Button>
        <Button type="button" variant="danger" disabled={pending} aria-busy={pending} onClick={onConfirm}>
          {pending ? pendingLabel : confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}

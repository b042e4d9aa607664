"use client";

import { type ReactNode, type RefObject, useId } from "react";

/**
 * A modal on the native <dialog>: showModal() makes the rest of the page inert (focus stays inside), Escape
 * closes it, and the browser returns focus to the control that opened it. The one dialog of the console:
 * ConfirmAction and ConfirmDialog are built on it.
 */
export function Dialog({
  dialogRef,
  title,
  description,
  onClose,
  children,
}: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  title: string;
  description?: ReactNode;
  /** Called however it closes (a button, Escape, or after success). */
  onClose?: () => void;
  children: ReactNode;
}) {
  const titleId = useId();
  const descId = useId();
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      onClose={onClose}
      className="m-auto w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        {title}
      </h2>
      {description ? (
        <div id={descId} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          {description}
        </div>
      ) : null}
      <div className="mt-4">{children}</div>
    </dialog>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { useRef, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ActionResult } from "@/lib/core";
import type { InstanceAction } from "@/lib/provisioning";
import { actionVariant, CONFIRMS } from "./pending-actions";

export type RunInstanceAction = (input: { action: InstanceAction; id: string }) => Promise<ActionResult>;

/**
 * The lifecycle buttons legal in the current state (the server decides which, viewers get none). Errors from
 * the library — the state changed meanwhile, quota on start — show next to the buttons or in the dialog.
 */
export function InstanceActions({
  id,
  name,
  actions,
  run,
  onDone,
}: {
  id: string;
  name: string;
  actions: InstanceAction[];
  run: RunInstanceAction;
  onDone: () => void;
}) {
  const t = useTranslations("Instances");
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [confirming, setConfirming] = useState<InstanceAction | null>(null);
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();

  function perform(action: InstanceAction) {
    startTransition(async () => {
      const res = await run({ action, id });
      if (!res.ok) {
        setError(res.message);
        return;
      }
      setError(undefined);
      dialogRef.current?.close();
      onDone();
    });
  }

  if (actions.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {actions.map((a) => (
          <Button
            key={a}
            type="button"
            variant={actionVariant(a)}
            aria-haspopup={CONFIRMS[a] ? "dialog" : undefined}
            disabled={pending}
            aria-busy={pending && confirming === null}
            onClick={() => {
              setError(undefined);
              if (!CONFIRMS[a]) return perform(a);
              setConfirming(a);
              dialogRef.current?.showModal();
            }}
          >
            {t(`actions.${a}`)}
          </Button>
        ))}
      </div>
      <div role="alert" aria-live="assertive" className="min-h-5 text-sm text-red-700 dark:text-red-400">
        {confirming === null ? error : null}
      </div>
      <ConfirmDialog
        dialogRef={dialogRef}
        title={confirming ? t(`confirm.${confirming}.title`, { name }) : ""}
        description={confirming ? t(`confirm.${confirming}.body`) : ""}
        confirmLabel={confirming ? t(`confirm.${confirming}.confirm`) : ""}
        pendingLabel={t("actions.working")}
        cancelLabel={t("dialog.cancel")}
        pending={pending}
        error={confirming ? error : undefined}
        onConfirm={() => confirming && perform(confirming)}
        onClose={() => {
          if (confirming) setError(undefined);
          setConfirming(null);
        }}
      />
    </div>
  );
}

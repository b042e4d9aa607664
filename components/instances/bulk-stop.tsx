"use client";

import { useTranslations } from "next-intl";
import { useRef, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { refreshLive } from "@/components/ui/live-query";
import type { ActionResult } from "@/lib/core";
import type { BulkStopResult } from "@/lib/provisioning";

export type BulkStopOutcome = {
  stopped: Array<{ id: string; name: string }>;
  failed: Array<{ name: string; message: string }>;
};

/** "Stop selected": confirms with the names, then stops each one; the outcome goes to onDone for the report. */
export function BulkStop({
  org,
  chosen,
  stopAction,
  onDone,
}: {
  org: string;
  stopAction: (input: { ids: string[] }) => Promise<ActionResult<BulkStopResult>>;
  chosen: Array<{ id: string; name: string }>;
  onDone: (outcome: BulkStopOutcome) => void;
}) {
  const t = useTranslations("Instances");
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();

  function confirm() {
    const targets = chosen;
    const nameOf = new Map(targets.map((c) => [c.id, c.name]));
    startTransition(async () => {
      const res = await stopAction({ ids: targets.map((c) => c.id) });
      if (!res.ok || !res.data) {
        setError(res.ok ? undefined : res.message);
        return;
      }
      const data = res.data;
      setError(undefined);
      dialogRef.current?.close();
      onDone({
        stopped: data.stopped.map((id) => ({ id, name: nameOf.get(id) ?? id })),
        failed: data.failed.map((f) => ({ name: nameOf.get(f.id) ?? f.id, message: f.message })),
      });
      refreshLive(["instances", org]);
    });
  }

  return (
    <div>
      <Button
        type="button"
        variant="secondary"
        aria-haspopup="dialog"
        disabled={chosen.length === 0}
        onClick={() => {
          setError(undefined);
          dialogRef.current?.showModal();
        }}
      >
        {t("bulk.stopSelected", { count: chosen.length })}
      </Button>
      <ConfirmDialog
        dialogRef={dialogRef}
        title={t("bulk.confirmTitle", { count: chosen.length })}
        description={t("bulk.confirmBody")}
        confirmLabel={t("bulk.confirm", { count: chosen.length })}
        pendingLabel={t("actions.stopping")}
        cancelLabel={t("dialog.cancel")}
        pending={pending}
        error={error}
        onConfirm={confirm}
      >
        <ul className="mt-2 list-disc pl-5 text-sm">
          {chosen.map((c) => (
            <li key={c.id}>{c.name}</li>
          ))}
        </ul>
      </ConfirmDialog>
    </div>
  );
}

/**
 * What the last bulk stop did, per instance. Lives outside the table so it stays when the stopped instances
 * leave a filtered list (or the list becomes empty).
 */
export function BulkStopReport({ outcome }: { outcome: BulkStopOutcome | null }) {
  const t = useTranslations("Instances");
  return (
    <div role="status" aria-live="polite" className="text-sm">
      {outcome && outcome.stopped.length > 0 ? (
        <p className="text-green-800 dark:text-green-300">
          {t("bulk.stopped", {
            count: outcome.stopped.length,
            names: outcome.stopped.map((s) => s.name).join(", "),
          })}
        </p>
      ) : null}
      {outcome && outcome.failed.length > 0 ? (
        <div className="text-red-700 dark:text-red-400">
          <p>{t("bulk.failed", { count: outcome.failed.length })}</p>
          <ul className="list-disc pl-5">
            {outcome.failed.map((f) => (
              <li key={f.name}>
                <span className="font-medium">{f.name}</span>: {f.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

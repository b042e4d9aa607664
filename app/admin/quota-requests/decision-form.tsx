"use client";

import { useTranslations } from "next-intl";
import { createContext, type FormEvent, type ReactNode, use, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { useActionForm } from "@/components/ui/use-action-form";
import type { ActionResult } from "@/lib/core";

type Action = (prev: ActionResult | null, fd: FormData) => Promise<ActionResult>;
type Queue = ReturnType<typeof useActionForm<undefined>> & { current: string | null };

const QueueState = createContext<Queue | null>(null);

/**
 * One decision state for the whole queue. A decided request leaves the open list, so a form of its own would
 * unmount with its answer unread: the outcome is announced here, above the list, where it stays; field errors
 * and refusals stay with the form that was sent (it is still in the list then).
 */
export function DecisionQueue({ action, children }: { action: Action; children: ReactNode }) {
  const form = useActionForm(action);
  const [current, setCurrent] = useState<string | null>(null);
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    setCurrent(String(new FormData(e.currentTarget).get("requestId") ?? ""));
    form.onSubmit(e);
  }
  return (
    <QueueState value={{ ...form, onSubmit, current }}>
      <FormMessage message={form.success} ok />
      {children}
    </QueueState>
  );
}

export function DecisionForm({
  requestId,
  requestedGpus,
  label,
}: {
  requestId: string;
  requestedGpus: number;
  label: string;
}) {
  const t = useTranslations("AdminQuotaRequests");
  const queue = use(QueueState);
  if (!queue) throw new Error("DecisionForm is used inside DecisionQueue");
  const mine = queue.current === requestId;
  const fe = mine ? queue.fieldErrors : undefined;
  const p = `qr-${requestId}`;
  return (
    <form
      action={queue.formAction}
      onSubmit={queue.onSubmit}
      aria-label={label}
      className="flex flex-col gap-2"
    >
      <input type="hidden" name="requestId" value={requestId} />
      <fieldset className="flex gap-4 text-sm">
        <legend className="sr-only">{t("decision")}</legend>
        <label className="flex items-center gap-1">
          <input type="radio" name="decision" value="approve" defaultChecked /> {t("approve")}
        </label>
        <label className="flex items-center gap-1">
          <input type="radio" name="decision" value="deny" /> {t("deny")}
        </label>
      </fieldset>
      {fe?.decision && <p className="text-sm text-red-700 dark:text-red-400">{fe.decision.join(" ")}</p>}
      <Field
        id={`${p}-granted`}
        name="grantedGpus"
        label={t("granted")}
        hint={t("grantedHint", { requested: requestedGpus })}
        inputMode="numeric"
        errors={fe?.grantedGpus}
      />
      <Field id={`${p}-message`} name="message" label={t("message")} errors={fe?.message} />
      <div>
        <Button type="submit" disabled={queue.pending && mine}>
          {t("submit")}
        </Button>
        <FormMessage message={mine ? queue.error : undefined} />
      </div>
    </form>
  );
}

"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { SelectField } from "@/components/ui/select-field";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";

export type ReservationQuoteView = {
  gpuModelId: string;
  regionCode: string;
  gpuCount: number;
  term: "reserved_1m" | "reserved_1y";
  startsAt: string;
  endsAt: string;
  hours: number;
  usdPerGpuHour: number;
  onDemandUsdPerGpuHour: number | null;
  totalUsd: number;
  savingsPct: number | null;
};

type Props = {
  gpuModels: Array<{ id: string; name: string }>;
  regions: Array<{ code: string; name: string }>;
  quoteAction: FormAction<ReservationQuoteView>;
  purchaseAction: FormAction;
};

/**
 * Reserve GPUs in two steps: "Show price" asks the library for a quote; only a fresh quote (no field changed
 * since) can be bought, and buying needs a confirmation that repeats the total.
 */
export function ReservationPurchase({ gpuModels, regions, quoteAction, purchaseAction }: Props) {
  const t = useTranslations("Costs.reservations.purchase");
  const tc = useTranslations("Common");
  const tp = useTranslations("Costs.pricing");
  const format = useFormatter();
  const money = (n: number) => format.number(n, { style: "currency", currency: "USD" });
  const quote = useActionForm(quoteAction);
  const buy = useActionForm(purchaseAction);
  const [stale, setStale] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const q = quote.state?.ok && !stale ? quote.state.data : undefined;
  // A new key per quote: resubmitting this purchase (double click, retry after a timeout) buys it once.
  const purchaseKey = useMemo(() => (q ? crypto.randomUUID() : ""), [q]);
  const modelName = (id: string) => gpuModels.find((m) => m.id === id)?.name ?? id;

  useEffect(() => {
    if (buy.state?.ok) {
      dialogRef.current?.close();
      setStale(true);
    }
  }, [buy.state]);

  return (
    <div className="flex flex-col gap-4">
      <form
        action={quote.formAction}
        onSubmit={(e) => {
          setStale(false);
          quote.onSubmit(e);
        }}
        onChange={() => setStale(true)}
        noValidate
        className="grid max-w-2xl gap-4 sm:grid-cols-2"
      >
        <SelectField
          name="gpuModelId"
          label={t("gpuModel")}
          placeholder={t("choose")}
          options={gpuModels.map((m) => ({ value: m.id, label: m.name }))}
          errors={quote.fieldErrors?.gpuModelId}
        />
        <SelectField
          name="regionCode"
          label={t("region")}
          placeholder={t("choose")}
          options={regions.map((r) => ({ value: r.code, label: `${r.name} (${r.code})` }))}
          errors={quote.fieldErrors?.regionCode}
        />
        <Field
          name="gpuCount"
          type="number"
          inputMode="numeric"
          min={1}
          max={512}
          defaultValue={1}
          label={t("count")}
          errors={quote.fieldErrors?.gpuCount}
        />
        <SelectField
          name="term"
          label={t("term")}
          options={[
            { value: "reserved_1m", label: tp("reserved_1m") },
            { value: "reserved_1y", label: tp("reserved_1y") },
          ]}
          errors={quote.fieldErrors?.term}
        />
        <div className="sm:col-span-2">
          <FormMessage message={quote.error} />
          <Button type="submit" disabled={quote.pending} aria-busy={quote.pending}>
            {quote.pending ? t("quoting") : t("showPrice")}
          </Button>
        </div>
      </form>
      <div role="status" aria-live="polite">
        {q ? (
          <section
            aria-label={t("quoteLabel")}
            className="flex max-w-2xl flex-col gap-2 rounded-lg border border-orange-300 bg-orange-50 p-4 dark:border-orange-800 dark:bg-slate-900"
          >
            <p className="text-sm">
              {t("quoteWhat", {
                count: q.gpuCount,
                model: modelName(q.gpuModelId),
                region: q.regionCode,
                term: tp(q.term),
              })}
            </p>
            <p className="text-2xl font-semibold tabular-nums">{money(q.totalUsd)}</p>
            <p className="text-sm">
              {t("quoteRate", {
                rate: money(q.usdPerGpuHour),
                hours: format.number(q.hours),
                from: format.dateTime(new Date(q.startsAt), { dateStyle: "medium", timeZone: "UTC" }),
                to: format.dateTime(new Date(q.endsAt), { dateStyle: "medium", timeZone: "UTC" }),
              })}
            </p>
            {q.onDemandUsdPerGpuHour !== null && q.savingsPct !== null ? (
              <p className="text-sm">
                {t("quoteSavings", { onDemand: money(q.onDemandUsdPerGpuHour), pct: q.savingsPct })}
              </p>
            ) : null}
            <p className="text-xs text-slate-700 dark:text-slate-300">{t("commitment")}</p>
            <div>
              <Button type="button" aria-haspopup="dialog" onClick={() => dialogRef.current?.showModal()}>
                {t("purchase")}
              </Button>
            </div>
          </section>
        ) : null}
        {buy.success ? <FormMessage message={buy.success} ok /> : null}
      </div>
      <Dialog
        dialogRef={dialogRef}
        title={t("confirmTitle")}
        description={
          q
            ? t("confirmBody", {
                count: q.gpuCount,
                model: modelName(q.gpuModelId),
                region: q.regionCode,
                term: tp(q.term),
                total: money(q.totalUsd),
              })
            : null
        }
      >
        <form action={buy.formAction} onSubmit={buy.onSubmit} className="flex flex-col gap-3">
          {q ? (
            <>
              <input type="hidden" name="gpuModelId" value={q.gpuModelId} />
              <input type="hidden" name="regionCode" value={q.regionCode} />
              <input type="hidden" name="gpuCount" value={q.gpuCount} />
              <input type="hidden" name="term" value={q.term} />
              <input type="hidden" name="idempotencyKey" value={purchaseKey} />
            </>
          ) : null}
          <FormMessage message={buy.error} />
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" autoFocus onClick={() => dialogRef.current?.close()}>
              {tc("cancel")}
            </Button>
            <Button type="submit" disabled={buy.pending} aria-busy={buy.pending}>
              {t("confirm", { total: q ? money(q.totalUsd) : "" })}
            </Button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}

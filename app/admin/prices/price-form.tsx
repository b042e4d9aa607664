"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { SelectField } from "@/components/ui/select-field";
import { useActionForm } from "@/components/ui/use-action-form";
import { PRICING_MODELS } from "@/lib/catalog/schemas";
import { schedulePriceAction } from "./actions";

type Option = { value: string; label: string };

/** Schedule a future price for an instance type in a region and pricing model; times are UTC. */
export function SchedulePriceForm({
  types,
  regions,
  region,
}: {
  types: Option[];
  regions: Option[];
  /** The region the page shows, preselected. */
  region?: string;
}) {
  const t = useTranslations("Prices");
  const {
    state,
    formAction,
    onSubmit,
    pending,
    formRef,
    fieldErrors: fe,
  } = useActionForm(schedulePriceAction, { resetOnSuccess: true });
  return (
    <form
      ref={formRef}
      action={formAction}
      onSubmit={onSubmit}
      aria-label={t("scheduleTitle")}
      className="mb-8 grid max-w-3xl gap-3 rounded-lg border border-slate-200 p-4 sm:grid-cols-2 dark:border-slate-800"
    >
      <h2 className="text-lg font-semibold sm:col-span-2">{t("scheduleTitle")}</h2>
      <SelectField
        name="instanceTypeId"
        label={t("instanceType")}
        options={types}
        placeholder={t("choose")}
        errors={fe?.instanceTypeId}
      />
      <SelectField
        name="regionCode"
        label={t("region")}
        options={regions}
        defaultValue={region ?? ""}
        placeholder={t("choose")}
        errors={fe?.regionCode}
      />
      <SelectField
        name="pricingModel"
        label={t("pricingModel")}
        options={PRICING_MODELS.map((m) => ({ value: m, label: t(`models.${m}`) }))}
        defaultValue="on_demand"
        errors={fe?.pricingModel}
      />
      <Field
        name="usdPerHour"
        label={t("usdPerHour")}
        hint={t("usdPerHourHint")}
        type="number"
        step="0.0001"
        required
        errors={fe?.usdPerHour}
      />
      <Field
        name="effectiveFrom"
        label={t("effectiveFrom")}
        hint={t("effectiveFromHint")}
        type="datetime-local"
        required
        errors={fe?.effectiveFrom}
      />
      <div className="flex items-end">
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? t("scheduling") : t("schedule")}
        </Button>
      </div>
      <div className="sm:col-span-2">
        <FormMessage message={state?.message} ok={state?.ok} />
      </div>
    </form>
  );
}

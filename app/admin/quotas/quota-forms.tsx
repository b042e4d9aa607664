"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { SelectField } from "@/components/ui/select-field";
import { useActionForm } from "@/components/ui/use-action-form";
import type { ActionResult } from "@/lib/core";
import type { QuotaChoices } from "@/lib/quotas";

type Action = (prev: ActionResult | null, fd: FormData) => Promise<ActionResult>;
type Levels = { nominalGpus?: number; borrowingLimitGpus?: number; lendingLimitGpus?: number | null };

/** The kit's SelectField with an id per form (two forms on the page ask for the same names) and "—" first. */
function Select({
  prefix,
  name,
  options,
  extra,
  defaultValue,
  ...rest
}: {
  prefix: string;
  name: string;
  label: string;
  options: Array<{ value: string; label: string }>;
  errors?: string[];
  defaultValue?: string;
  extra?: Array<{ value: string; label: string }>;
}) {
  return (
    <SelectField
      id={`${prefix}-${name}`}
      name={name}
      placeholder="—"
      options={[...(extra ?? []), ...options]}
      defaultValue={defaultValue ?? ""}
      {...rest}
    />
  );
}

function LevelFields({
  fe,
  initial,
  prefix,
}: {
  fe?: Record<string, string[]>;
  initial?: Levels;
  prefix: string;
}) {
  const t = useTranslations("AdminQuotas");
  return (
    <>
      <Field
        name="nominalGpus"
        id={`${prefix}-nominalGpus`}
        label={t("nominal")}
        inputMode="numeric"
        defaultValue={initial?.nominalGpus ?? ""}
        errors={fe?.nominalGpus}
      />
      <Field
        name="borrowingLimitGpus"
        id={`${prefix}-borrowingLimitGpus`}
        label={t("borrowingLimit")}
        inputMode="numeric"
        defaultValue={initial?.borrowingLimitGpus ?? 0}
        errors={fe?.borrowingLimitGpus}
      />
      <Field
        name="lendingLimitGpus"
        id={`${prefix}-lendingLimitGpus`}
        label={t("lendingLimit")}
        hint={t("lendingLimitHint")}
        inputMode="numeric"
        defaultValue={initial?.lendingLimitGpus ?? ""}
        errors={fe?.lendingLimitGpus}
      />
    </>
  );
}

const models = (c: QuotaChoices) => c.models.map((m) => ({ value: m.id, label: m.name }));
const regions = (c: QuotaChoices) =>
  c.regions.map((r) => ({ value: r.code, label: `${r.name} (${r.code})` }));

export function OrgQuotaForm({
  action,
  choices,
  initial,
}: {
  action: Action;
  choices: QuotaChoices;
  initial?: Levels & { orgId?: string; gpuModelId?: string; regionCode?: string };
}) {
  const t = useTranslations("AdminQuotas");
  const { state, formAction, onSubmit, pending } = useActionForm(action, { resetOnSuccess: true });
  const fe = state && !state.ok ? state.fieldErrors : undefined;
  return (
    <form
      action={formAction}
      onSubmit={onSubmit}
      aria-labelledby="org-quota-heading"
      className="grid gap-3 md:grid-cols-3"
    >
      <Select
        prefix="oq"
        name="orgId"
        label={t("organization")}
        options={choices.orgs.map((o) => ({ value: o.id, label: o.name }))}
        defaultValue={initial?.orgId}
        errors={fe?.orgId}
      />
      <Select
        prefix="oq"
        name="gpuModelId"
        label={t("gpuModel")}
        options={models(choices)}
        defaultValue={initial?.gpuModelId}
        errors={fe?.gpuModelId}
      />
      <Select
        prefix="oq"
        name="regionCode"
        label={t("region")}
        options={regions(choices)}
        defaultValue={initial?.regionCode}
        errors={fe?.regionCode}
      />
      <LevelFields prefix="oq" fe={fe} initial={initial} />
      <label className="flex items-center gap-2 text-sm md:col-span-3">
        <input type="checkbox" name="confirmReclaim" />
        {t("confirmReclaim")}
      </label>
      <div className="md:col-span-3">
        <Button type="submit" disabled={pending}>
          {t("save")}
        </Button>
        <FormMessage message={state?.message} ok={state?.ok} />
      </div>
    </form>
  );
}

export function DefaultQuotaForm({ action, choices }: { action: Action; choices: QuotaChoices }) {
  const t = useTranslations("AdminQuotas");
  const { state, formAction, onSubmit, pending } = useActionForm(action, { resetOnSuccess: true });
  const fe = state && !state.ok ? state.fieldErrors : undefined;
  const any = [{ value: "*", label: t("any") }];
  return (
    <form
      action={formAction}
      onSubmit={onSubmit}
      aria-labelledby="defaults-heading"
      className="grid gap-3 md:grid-cols-3"
    >
      <Select
        prefix="dq"
        name="gpuModelId"
        label={t("gpuModel")}
        options={models(choices)}
        extra={any}
        errors={fe?.gpuModelId}
      />
      <Select
        prefix="dq"
        name="regionCode"
        label={t("region")}
        options={regions(choices)}
        extra={any}
        errors={fe?.regionCode}
      />
      <div />
      <LevelFields prefix="dq" fe={fe} />
      <label className="flex items-center gap-2 text-sm md:col-span-3">
        <input type="checkbox" name="confirmReclaim" />
        {t("confirmDefaultReclaim")}
      </label>
      <div className="md:col-span-3">
        <Button type="submit" disabled={pending}>
          {t("saveDefault")}
        </Button>
        <FormMessage message={state?.message} ok={state?.ok} />
      </div>
    </form>
  );
}

export function CohortForm({ action }: { action: Action }) {
  const t = useTranslations("AdminQuotas");
  const { state, formAction, onSubmit, pending } = useActionForm(action, { resetOnSuccess: true });
  const fe = state && !state.ok ? state.fieldErrors : undefined;
  return (
    <form
      action={formAction}
      onSubmit={onSubmit}
      aria-label={t("createCohort")}
      className="grid gap-3 md:grid-cols-3"
    >
      <Field id="co-name" name="name" label={t("cohortName")} errors={fe?.name} />
      <Field id="co-description" name="description" label={t("cohortDescription")} errors={fe?.description} />
      <div className="self-end">
        <Button type="submit" disabled={pending}>
          {t("createCohort")}
        </Button>
        <FormMessage message={state?.message} ok={state?.ok} />
      </div>
    </form>
  );
}

export function CohortMemberForm({
  action,
  choices,
  cohorts,
}: {
  action: Action;
  choices: QuotaChoices;
  cohorts: Array<{ id: string; name: string }>;
}) {
  const t = useTranslations("AdminQuotas");
  const { state, formAction, onSubmit, pending } = useActionForm(action, { resetOnSuccess: true });
  const fe = state && !state.ok ? state.fieldErrors : undefined;
  return (
    <form
      action={formAction}
      onSubmit={onSubmit}
      aria-label={t("setMember")}
      className="grid gap-3 md:grid-cols-4"
    >
      <Select
        prefix="cm"
        name="cohortId"
        label={t("cohort")}
        options={cohorts.map((c) => ({ value: c.id, label: c.name }))}
        errors={fe?.cohortId}
      />
      <Select
        prefix="cm"
        name="orgId"
        label={t("organization")}
        options={choices.orgs.map((o) => ({ value: o.id, label: o.name }))}
        errors={fe?.orgId}
      />
      <Field
        id="cm-weight"
        name="weight"
        label={t("weight")}
        inputMode="decimal"
        defaultValue="1"
        errors={fe?.weight}
      />
      <div className="self-end">
        <Button type="submit" disabled={pending}>
          {t("setMember")}
        </Button>
        <FormMessage message={state?.message} ok={state?.ok} />
      </div>
    </form>
  );
}

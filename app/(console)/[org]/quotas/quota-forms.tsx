"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { CheckboxField } from "@/components/ui/checkbox-field";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { SelectField } from "@/components/ui/select-field";
import { TextAreaField } from "@/components/ui/textarea-field";
import { useActionForm } from "@/components/ui/use-action-form";
import type { ActionResult } from "@/lib/core";

type Action = (orgSlug: string, prev: ActionResult | null, fd: FormData) => Promise<ActionResult>;
type Option = { value: string; label: string };

/** The GPU model and region a quota is for; `prefix` keeps the ids apart from the page's other form. */
function ModelRegionFields({
  prefix,
  models,
  regions,
  fe,
  initial,
}: {
  prefix: string;
  models: Option[];
  regions: Option[];
  fe?: Record<string, string[]>;
  initial?: { gpuModelId: string; regionCode: string };
}) {
  const t = useTranslations("OrgQuotas");
  return (
    <>
      <SelectField
        id={`${prefix}-gpuModelId`}
        name="gpuModelId"
        label={t("gpuModel")}
        options={models}
        placeholder={t("choose")}
        defaultValue={initial?.gpuModelId}
        errors={fe?.gpuModelId}
      />
      <SelectField
        id={`${prefix}-regionCode`}
        name="regionCode"
        label={t("region")}
        options={regions}
        placeholder={t("choose")}
        defaultValue={initial?.regionCode}
        errors={fe?.regionCode}
      />
    </>
  );
}

export function QuotaRequestForm({
  action,
  orgSlug,
  models,
  regions,
  initial,
}: {
  action: Action;
  orgSlug: string;
  models: Option[];
  regions: Option[];
  initial: { gpuModelId?: string; regionCode?: string; requestedGpus?: string };
}) {
  const t = useTranslations("OrgQuotas");
  const { state, formAction, onSubmit, pending } = useActionForm(action.bind(null, orgSlug), {
    resetOnSuccess: true,
  });
  const fe = state && !state.ok ? state.fieldErrors : undefined;
  return (
    <form
      action={formAction}
      onSubmit={onSubmit}
      aria-labelledby="request-heading"
      className="grid max-w-3xl gap-3 md:grid-cols-2"
    >
      <ModelRegionFields
        prefix="rq"
        models={models}
        regions={regions}
        fe={fe}
        initial={{ gpuModelId: initial.gpuModelId ?? "", regionCode: initial.regionCode ?? "" }}
      />
      <Field
        id="rq-requestedGpus"
        name="requestedGpus"
        label={t("requestedGpus")}
        hint={t("requestedGpusHint")}
        inputMode="numeric"
        defaultValue={initial.requestedGpus ?? ""}
        errors={fe?.requestedGpus}
      />
      <Field
        id="rq-until"
        name="until"
        type="date"
        label={t("until")}
        hint={t("untilHint")}
        errors={fe?.until}
      />
      <div className="md:col-span-2">
        <TextAreaField id="rq-reason" name="reason" label={t("reason")} rows={3} errors={fe?.reason} />
      </div>
      <div className="md:col-span-2">
        <Button type="submit" disabled={pending}>
          {t("submit")}
        </Button>
        <FormMessage message={state?.message} ok={state?.ok} />
      </div>
    </form>
  );
}

export function ProjectShareForm({
  action,
  orgSlug,
  projects,
  models,
  regions,
}: {
  action: Action;
  orgSlug: string;
  projects: Option[];
  models: Option[];
  regions: Option[];
}) {
  const t = useTranslations("OrgQuotas");
  const { state, formAction, onSubmit, pending } = useActionForm(action.bind(null, orgSlug), {
    resetOnSuccess: true,
  });
  const fe = state && !state.ok ? state.fieldErrors : undefined;
  return (
    <form
      action={formAction}
      onSubmit={onSubmit}
      aria-label={t("setShare")}
      className="grid max-w-3xl gap-3 md:grid-cols-4"
    >
      <SelectField
        id="ps-project"
        name="project"
        label={t("project")}
        options={projects}
        placeholder={t("choose")}
        errors={fe?.project}
      />
      <ModelRegionFields prefix="ps" models={models} regions={regions} fe={fe} />
      <Field
        id="ps-shareGpus"
        name="shareGpus"
        label={t("shareGpus")}
        hint={t("shareHint")}
        inputMode="numeric"
        errors={fe?.shareGpus}
      />
      <div className="md:col-span-4">
        <Button type="submit" disabled={pending}>
          {t("setShare")}
        </Button>
        <FormMessage message={state?.message} ok={state?.ok} />
      </div>
    </form>
  );
}

/** The organization's preemption policy: one checkbox (admins and owners). */
export function QuotaPolicyForm({
  action,
  orgSlug,
  preemptLowerPriority,
}: {
  action: Action;
  orgSlug: string;
  preemptLowerPriority: boolean;
}) {
  const t = useTranslations("OrgQuotas");
  const { state, formAction, onSubmit, pending } = useActionForm(action.bind(null, orgSlug));
  const fe = state && !state.ok ? state.fieldErrors : undefined;
  return (
    <form
      action={formAction}
      onSubmit={onSubmit}
      aria-labelledby="policy-heading"
      className="flex max-w-3xl flex-col gap-3"
    >
      <CheckboxField
        id="qp-preemptLowerPriority"
        name="preemptLowerPriority"
        label={t("policyPreempt")}
        hint={t("policyPreemptHint")}
        defaultChecked={preemptLowerPriority}
        errors={fe?.preemptLowerPriority}
      />
      <div>
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? t("policySaving") : t("policySave")}
        </Button>
        <FormMessage message={state?.message} ok={state?.ok} />
      </div>
    </form>
  );
}

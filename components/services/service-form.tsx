"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { LaunchImage, LaunchProject, LaunchRegion } from "@/components/instances/launch-options";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { SelectField } from "@/components/ui/select-field";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";
import { ScalingFields } from "./scaling-fields";
import { TokenOnce } from "./token-once";

export type ServiceFormOptions = {
  projects: LaunchProject[];
  regions: LaunchRegion[];
  instanceTypes: Array<{ id: string; label: string }>;
  images: LaunchImage[];
};

/** Create a service: the spec of lib/services, with the library's field messages at each field. */
export function ServiceForm({
  org,
  action,
  options,
}: {
  org: string;
  action: FormAction<{ id: string; token: string | null }>;
  options: ServiceFormOptions;
}) {
  const t = useTranslations("Services.form");
  const { state, formAction, onSubmit, pending, fieldErrors, error } = useActionForm(action);
  const errs = (k: string) => fieldErrors?.[k];
  const created = state?.ok ? state.data : undefined;
  if (created?.token) {
    return (
      <TokenOnce heading={t("createdHeading")} token={created.token}>
        <Link
          href={`/${org}/services/${created.id}`}
          className="text-orange-800 underline dark:text-orange-300"
        >
          {t("open")}
        </Link>
      </TokenOnce>
    );
  }
  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="flex max-w-2xl flex-col gap-4">
      <Field name="name" label={t("name")} hint={t("nameHint")} errors={errs("name")} required />
      <SelectField
        name="project"
        label={t("project")}
        options={options.projects.map((p) => ({ value: p.slug, label: p.name }))}
        errors={errs("project")}
      />
      <SelectField
        name="image"
        label={t("image")}
        placeholder={t("choose")}
        options={options.images.map((i) => ({ value: i.id, label: i.name }))}
        errors={errs("image")}
      />
      <Field name="command" label={t("command")} hint={t("commandHint")} errors={errs("command")} />
      <Field
        name="port"
        label={t("port")}
        type="number"
        inputMode="numeric"
        defaultValue="8000"
        errors={errs("port")}
      />
      <SelectField
        name="region"
        label={t("region")}
        placeholder={t("choose")}
        options={options.regions
          .filter((r) => r.allowed)
          .map((r) => ({ value: r.code, label: `${r.name} (${r.code})` }))}
        errors={errs("region")}
      />
      <SelectField
        name="instanceType"
        label={t("instanceType")}
        placeholder={t("choose")}
        options={options.instanceTypes.map((i) => ({ value: i.id, label: i.label }))}
        errors={errs("instanceType")}
      />
      <SelectField
        name="pricingModel"
        label={t("pricing")}
        options={[
          { value: "on_demand", label: t("onDemand") },
          { value: "spot", label: t("spot") },
        ]}
        errors={errs("pricingModel")}
      />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="onDemandFallback" defaultChecked />
        {t("fallback")}
      </label>
      <ScalingFields errors={fieldErrors} />
      <Field
        name="readiness.path"
        label={t("readinessPath")}
        defaultValue="/health"
        errors={errs("readiness.path")}
      />
      <SelectField
        name="auth"
        label={t("auth")}
        options={[
          { value: "token", label: t("authToken") },
          { value: "public", label: t("authPublic") },
        ]}
        errors={errs("auth")}
      />
      <FormMessage message={error} />
      <div>
        <Button type="submit" disabled={pending}>
          {t("create")}
        </Button>
      </div>
    </form>
  );
}

"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { SelectField } from "@/components/ui/select-field";
import { useActionForm } from "@/components/ui/use-action-form";
import { addNodeAction } from "../../actions";

type Option = { value: string; label: string };

/** Name, region, GPU model and size of a new node; the first N GPUs may start in MIG mode. */
export function AddNodeForm({ regions, models }: { regions: Option[]; models: Option[] }) {
  const t = useTranslations("Fleet");
  const {
    state,
    formAction,
    onSubmit,
    pending,
    formRef,
    fieldErrors: fe,
  } = useActionForm(addNodeAction, {
    resetOnSuccess: true,
  });
  const added = state?.ok ? state.data?.id : undefined;
  return (
    <form
      ref={formRef}
      action={formAction}
      onSubmit={onSubmit}
      aria-label={t("addNodeTitle")}
      className="flex max-w-xl flex-col gap-3"
    >
      <Field name="name" label={t("name")} hint={t("nameHint")} required errors={fe?.name} />
      <SelectField
        name="regionCode"
        label={t("region")}
        options={regions}
        placeholder={t("choose")}
        errors={fe?.regionCode}
      />
      <SelectField
        name="gpuModelId"
        label={t("model")}
        options={models}
        placeholder={t("choose")}
        errors={fe?.gpuModelId}
      />
      <Field
        name="gpuCount"
        label={t("gpuCount")}
        type="number"
        min={1}
        max={16}
        defaultValue={8}
        errors={fe?.gpuCount}
      />
      <Field
        name="migGpus"
        label={t("migGpus")}
        hint={t("migGpusHint")}
        type="number"
        min={0}
        max={16}
        defaultValue={0}
        errors={fe?.migGpus}
      />
      <Field name="vcpus" label={t("vcpus")} type="number" min={1} defaultValue={128} errors={fe?.vcpus} />
      <Field
        name="ramGib"
        label={t("ramGib")}
        type="number"
        min={1}
        defaultValue={1024}
        errors={fe?.ramGib}
      />
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? t("adding") : t("addNode")}
        </Button>
      </div>
      <FormMessage message={state?.message} ok={state?.ok} />
      {added && (
        <Link href={`/admin/fleet/nodes/${added}`} className="text-sm text-orange-700 underline">
          {t("openNode")}
        </Link>
      )}
    </form>
  );
}

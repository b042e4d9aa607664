"use client";

import Link from "next/link";
import { useFormatter, useTranslations } from "next-intl";
import { type FormEvent, startTransition, useActionState, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { RadioGroup } from "@/components/ui/radio-group";
import { SelectField } from "@/components/ui/select-field";
import type { ActionResult } from "@/lib/core";
import { AutoShutdownFields } from "./auto-shutdown-fields";
import { ContainerFields } from "./container-fields";
import { LaunchKindField } from "./launch-kind";
import type {
  LaunchDefaults,
  LaunchImage,
  LaunchOffering,
  LaunchProject,
  LaunchRegion,
} from "./launch-options";
import { LazyLaunchPreview } from "./launch-preview-lazy";
import { OfferingFields } from "./offering-fields";

/** The launch form's pricing choice; "reserved" means a reservation's term, priced as such. */
export type PricingChoice = "on_demand" | "spot" | "reserved";

type LaunchAction = (prev: ActionResult | null, formData: FormData) => Promise<ActionResult>;

export function LaunchForm({
  org,
  action,
  projects,
  regions,
  offerings,
  images,
  defaults,
}: {
  org: string;
  action: LaunchAction;
  projects: LaunchProject[];
  regions: LaunchRegion[];
  offerings: LaunchOffering[];
  images: LaunchImage[];
  defaults: LaunchDefaults;
}) {
  const t = useTranslations("Instances");
  const format = useFormatter();
  const [state, dispatch, pending] = useActionState(action, null);
  const [kind, setKind] = useState(defaults.kind);
  const [region, setRegion] = useState(defaults.region);
  const [instanceType, setInstanceType] = useState(defaults.instanceType);
  const [pricing, setPricing] = useState<PricingChoice>(defaults.pricingModel);
  const inRegion = useMemo(() => offerings.filter((o) => o.regionCode === region), [offerings, region]);
  const offering = inRegion.find((o) => o.instanceTypeId === instanceType);
  const usable = images.filter(
    (i) => i.kinds.includes(kind) && (!offering || i.accelerator === offering.accelerator),
  );
  const [image, setImage] = useState(usable[0]?.id ?? "");
  const imageValue = usable.some((i) => i.id === image) ? image : (usable[0]?.id ?? "");
  const errors = state && !state.ok ? state.fieldErrors : undefined;
  const formError = state && !state.ok ? state.message : undefined;
  const quotaAsk =
    state && !state.ok && state.reason === "quota_exceeded" && state.params
      ? `/${org}/quotas?${new URLSearchParams({
          model: String(state.params.gpuModelId ?? ""),
          region: String(state.params.regionCode ?? ""),
          gpus: String(Number(state.params.usedGpus ?? 0) + Number(state.params.requestedGpus ?? 0)),
        })}#request-heading`
      : undefined;

  function changeRegion(code: string) {
    setRegion(code);
    const still = offerings.some((o) => o.regionCode === code && o.instanceTypeId === instanceType);
    if (!still) setInstanceType(offerings.find((o) => o.regionCode === code)?.instanceTypeId ?? "");
  }
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const fd = new FormData(e.currentTarget);
    startTransition(() => dispatch(fd));
  }
  const priceHint = (p: number | null | undefined) =>
    p == null
      ? t("launch.notOfferedShort")
      : t("price.perHour", { price: format.number(p, { style: "currency", currency: "USD" }) });

  return (
    <form
      action={dispatch}
      onSubmit={onSubmit}
      noValidate
      aria-busy={pending}
      className="grid gap-6 lg:grid-cols-[1fr_20rem]"
    >
      <div className="flex flex-col gap-5">
        <div role="alert" aria-live="assertive" className="text-sm">
          {formError ? (
            <p className="rounded-md border border-red-300 bg-red-50 p-3 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
              {formError}
              {quotaAsk ? (
                <>
                  {" "}
                  <Link href={quotaAsk} className="font-medium underline">
                    {t("launch.requestQuota")}
                  </Link>
                </>
              ) : null}
            </p>
          ) : null}
        </div>
        <LaunchKindField value={kind} onChange={setKind} errors={errors?.kind} />
        <Field
          name="name"
          label={t("launch.name")}
          hint={t("launch.nameHint")}
          placeholder={kind === "notebook" ? "my-notebook" : "my-job"}
          autoComplete="off"
          required
          errors={errors?.name}
        />
        <SelectField
          name="project"
          label={t("launch.project")}
          defaultValue={defaults.project}
          errors={errors?.project}
        >
          {projects.map((p) => (
            <option key={p.slug} value={p.slug}>
              {p.name}
            </option>
          ))}
        </SelectField>
        <OfferingFields
          regions={regions}
          inRegion={inRegion}
          region={region}
          instanceType={instanceType}
          onRegion={changeRegion}
          onInstanceType={setInstanceType}
          errors={errors}
        />
        <RadioGroup
          name="pricingModel"
          legend={t("launch.pricing")}
          value={pricing}
          onChange={setPricing}
          errors={errors?.pricingModel}
          options={[
            {
              value: "on_demand",
              label: t("pricing.on_demand"),
              hint: priceHint(offering?.prices.on_demand),
            },
            { value: "spot", label: t("pricing.spot"), hint: priceHint(offering?.prices.spot) },
            {
              value: "reserved",
              label: t("pricing.reserved"),
              hint: t("launch.reservedHint", {
                price: priceHint(offering?.prices.reserved_1y ?? offering?.prices.reserved_1m),
              }),
            },
          ]}
        />
        <SelectField
          name="image"
          label={t("launch.image")}
          value={imageValue}
          onChange={(e) => setImage(e.target.value)}
          errors={errors?.image}
          hint={
            usable.length === 0
              ? t("launch.noImages")
              : offering
                ? t("launch.imageHint", { accelerator: offering.accelerator.toUpperCase() })
                : undefined
          }
        >
          {usable.map((i) => (
            <option key={i.id} value={i.id}>
              {i.name}
            </option>
          ))}
        </SelectField>
        {kind === "container" ? <ContainerFields errors={errors} /> : null}
        <Field
          name="diskGib"
          type="number"
          inputMode="numeric"
          min={10}
          label={t("launch.disk")}
          defaultValue={100}
          errors={errors?.diskGib}
        />
        <Field
          name="priority"
          type="number"
          inputMode="numeric"
          min={-100}
          max={100}
          label={t("launch.priority")}
          hint={t("launch.priorityHint")}
          defaultValue={0}
          errors={errors?.priority}
        />
        <AutoShutdownFields errors={errors} />
        <div className="flex items-start gap-2 text-sm">
          <input
            id="field-autoRecover"
            type="checkbox"
            name="autoRecover"
            aria-describedby="field-autoRecover-hint field-autoRecover-error"
            className="mt-0.5 size-4 accent-orange-700"
          />
          <div className="flex flex-col">
            <label htmlFor="field-autoRecover" className="font-medium">
              {t("launch.autoRecover")}
            </label>
            <span id="field-autoRecover-hint" className="text-xs text-slate-600 dark:text-slate-400">
              {t("launch.autoRecoverHint")}
            </span>
            <span
              id="field-autoRecover-error"
              aria-live="polite"
              className="text-sm text-red-700 dark:text-red-400"
            >
              {errors?.autoRecover?.join(" ")}
            </span>
          </div>
        </div>
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? t("launch.submitting") : t("launch.submit")}
          </Button>
          <span role="status" aria-live="polite" className="text-sm text-slate-600 dark:text-slate-400">
            {pending ? t("launch.submittingStatus") : ""}
          </span>
        </div>
      </div>
      <div className="lg:sticky lg:top-4 lg:self-start">
        <LazyLaunchPreview org={org} instanceType={instanceType} region={region} pricing={pricing} />
      </div>
    </form>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { SecretReveal } from "@/components/api/secret-reveal";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FieldErrors } from "@/components/ui/field-parts";
import { FormMessage } from "@/components/ui/form-message";
import { RadioGroup } from "@/components/ui/radio-group";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";

export type CreatedWebhook = { secret: string; id: string };

/** Register an endpoint: URL, what it receives, the format; the signing secret is shown once on success. */
export function CreateWebhookForm({
  action,
  eventTypes,
}: {
  action: FormAction<CreatedWebhook>;
  eventTypes: readonly string[];
}) {
  const t = useTranslations("Webhooks");
  const label = t as unknown as (key: string) => string;
  const { state, formAction, onSubmit, pending, formRef, fieldErrors, error, success } = useActionForm(
    action,
    { resetOnSuccess: true },
  );
  const [format, setFormat] = useState<"standard" | "slack">("standard");
  const [stored, setStored] = useState<string | null>(null);
  const router = useRouter();
  const secret = state?.ok ? state.data?.secret : undefined;
  const eventErrors = fieldErrors
    ? Object.entries(fieldErrors)
        .filter(([k]) => k === "events" || k.startsWith("events."))
        .flatMap(([, v]) => v)
    : undefined;
  return (
    <div className="flex flex-col gap-4">
      <form
        ref={formRef}
        action={formAction}
        onSubmit={onSubmit}
        noValidate
        className="flex max-w-xl flex-col gap-3"
      >
        <Field
          name="url"
          id="webhook-url"
          type="url"
          label={t("url")}
          hint={t("urlHint")}
          required
          autoComplete="off"
          errors={fieldErrors?.url}
        />
        <Field
          name="description"
          id="webhook-description"
          label={t("description")}
          hint={t("descriptionHint")}
          maxLength={200}
          autoComplete="off"
          errors={fieldErrors?.description}
        />
        <fieldset aria-describedby={eventErrors?.length ? "field-events-error" : undefined}>
          <legend className="text-sm font-medium">{t("events")}</legend>
          <div className="mt-1 flex flex-col gap-1">
            {eventTypes.map((type) => (
              <label key={type} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="events"
                  value={type}
                  defaultChecked={type === "instance.state_changed"}
                  className="accent-orange-700"
                />
                <span>{label(`event_${type.replaceAll(".", "_")}`)}</span>
                <code className="text-xs text-slate-600 dark:text-slate-400">{type}</code>
              </label>
            ))}
          </div>
          <FieldErrors id="field-events" errors={eventErrors} />
        </fieldset>
        <RadioGroup
          name="format"
          legend={t("format")}
          value={format}
          onChange={setFormat}
          errors={fieldErrors?.format}
          options={[
            { value: "standard", label: t("formatStandard"), hint: t("formatStandardHint") },
            { value: "slack", label: t("formatSlack"), hint: t("formatSlackHint") },
          ]}
        />
        <FormMessage message={error ?? success} ok={!error && Boolean(success)} />
        <div>
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? t("creating") : t("create")}
          </Button>
        </div>
      </form>
      {secret && stored !== secret ? (
        <SecretReveal
          namespace="Webhooks"
          secret={secret}
          onDone={() => {
            setStored(secret);
            router.refresh();
          }}
        />
      ) : null}
    </div>
  );
}

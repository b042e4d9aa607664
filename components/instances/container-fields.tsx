"use client";

import { useTranslations } from "next-intl";
import { Field } from "@/components/ui/field";
import { TextAreaField } from "@/components/ui/textarea-field";

/** What only a container takes: command, arguments, environment and the port it serves on. */
export function ContainerFields({ errors }: { errors?: Record<string, string[]> }) {
  const t = useTranslations("Instances.launch");
  return (
    <fieldset className="flex flex-col gap-4 rounded-md border border-slate-200 p-4 dark:border-slate-800">
      <legend className="px-1 text-sm font-semibold">{t("containerLegend")}</legend>
      <Field
        name="command"
        label={t("command")}
        hint={t("commandHint")}
        placeholder="python"
        autoComplete="off"
        errors={errors?.command}
      />
      <TextAreaField
        name="args"
        label={t("args")}
        hint={t("argsHint")}
        placeholder={"train.py\n--epochs=10"}
        errors={errors?.args}
      />
      <TextAreaField
        name="env"
        label={t("env")}
        hint={t("envHint")}
        placeholder={"WANDB_PROJECT=demo\nBATCH_SIZE=64"}
        errors={errors?.env}
      />
      <Field
        name="exposedPort"
        type="number"
        inputMode="numeric"
        min={1}
        max={65535}
        label={t("exposedPort")}
        hint={t("exposedPortHint")}
        errors={errors?.exposedPort}
      />
    </fieldset>
  );
}

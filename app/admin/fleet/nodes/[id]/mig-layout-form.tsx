"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { useActionForm } from "@/components/ui/use-action-form";
import { setMigLayoutAction } from "../../actions";

/**
 * Which GPUs of the node are in MIG mode, one checkbox each. The change is refused while anything runs there
 * (the lib says so in the form's message); the note beside it says so before the operator tries.
 */
export function MigLayoutForm({
  nodeId,
  gpus,
  busyInstances,
}: {
  nodeId: string;
  gpus: Array<{ index: number; migEnabled: boolean }>;
  busyInstances: number;
}) {
  const t = useTranslations("Fleet");
  const { state, formAction, onSubmit, pending, fieldErrors } = useActionForm(setMigLayoutAction);
  return (
    <form action={formAction} onSubmit={onSubmit} aria-labelledby="n-mig" className="flex flex-col gap-3">
      <input type="hidden" name="nodeId" value={nodeId} />
      <fieldset aria-describedby="mig-hint" className="flex flex-col gap-1">
        <legend id="n-mig" className="mb-1 text-lg font-semibold">
          {t("migLayoutTitle")}
        </legend>
        <p id="mig-hint" className="mb-1 text-sm text-slate-600 dark:text-slate-400">
          {t("migLayoutHint")}
        </p>
        <div className="flex flex-wrap gap-4">
          {gpus.map((g) => (
            <label key={g.index} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="migGpu" value={String(g.index)} defaultChecked={g.migEnabled} />
              {t("migGpuLabel", { index: g.index })}
            </label>
          ))}
        </div>
        {fieldErrors?.migGpus && (
          <p className="text-sm text-red-700 dark:text-red-400">{fieldErrors.migGpus.join(" ")}</p>
        )}
      </fieldset>
      {busyInstances > 0 && <p className="text-sm">{t("migLayoutBusy", { count: busyInstances })}</p>}
      <div>
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? t("migLayoutSaving") : t("migLayoutSave")}
        </Button>
      </div>
      <FormMessage message={state?.message} ok={state?.ok} />
    </form>
  );
}

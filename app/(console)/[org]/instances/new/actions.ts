"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { launchInputFromForm, toFormErrors } from "@/components/instances/launch-form-data";
import { requireUserCtx } from "@/lib/auth/session";
import { type ActionResult, parseInput, ValidationError } from "@/lib/core";
import { type LaunchSpec, launch, launchSpecSchema } from "@/lib/provisioning";
import { instanceActionError } from "../action-error";

/**
 * Launch form → the library's launch spec (same zod schema) → `launch` → the new instance's page. Errors on a
 * spec path come back at the form field that holds it; a quota refusal comes back as the form's alert.
 */
export async function launchInstanceAction(
  orgSlug: string,
  _prev: ActionResult | null,
  formData: FormData,
): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  const t = await getTranslations("Instances.launch.errors");
  const { input, errors } = launchInputFromForm(formData, {
    envLine: (line) => t("envLine", { line }),
    idleBoth: t("idleBoth"),
    scheduleTimeZone: t("scheduleTimeZone"),
  });
  let id: string;
  try {
    let spec: LaunchSpec;
    try {
      spec = parseInput(launchSpecSchema, input);
    } catch (err) {
      // One submit shows every problem: the schema's and the form's own (a malformed KEY=VALUE line …).
      if (err instanceof ValidationError) throw new ValidationError({ ...err.fieldErrors, ...errors });
      throw err;
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    const { instance } = await launch(ctx, orgSlug, spec);
    id = instance.id;
  } catch (err) {
    const result = await instanceActionError(err, "instance.launch");
    if (!result.ok && result.fieldErrors) {
      const fieldErrors = toFormErrors(result.fieldErrors);
      // Errors on a spec path the form has no input for are spelled out in the form's alert.
      return { ...result, message: [t("fix"), ...(fieldErrors._form ?? [])].join(" "), fieldErrors };
    }
    return result;
  }
  revalidatePath(`/${orgSlug}/instances`);
  redirect(`/${orgSlug}/instances/${id}`);
}

"use server";

import { getTranslations } from "next-intl/server";
import { orgAction } from "@/app/_kit/org-action";
import { launchInputFromForm, toFormErrors } from "@/components/instances/launch-form-data";
import { type ActionResult, parseInput, ValidationError } from "@/lib/core";
import { launch, launchSpecSchema } from "@/lib/provisioning";

const formText = () => getTranslations("Instances.launch.errors");

/**
 * Launch form → the library's launch spec (same zod schema) → `launch` → the new instance's page. Errors on a
 * spec path come back at the form field that holds it; a quota or budget refusal comes back as the form's alert.
 */
export const launchInstanceAction = orgAction<[ActionResult | null, FormData]>(
  {
    label: "instance.launch",
    area: "Instances.errors",
    revalidate: "/instances",
    reshape: async (failed) => {
      if (failed.ok || !failed.fieldErrors) return failed;
      const fieldErrors = toFormErrors(failed.fieldErrors);
      // Errors on a spec path the form has no input for are spelled out in the form's alert.
      return {
        ...failed,
        message: [(await formText())("fix"), ...(fieldErrors._form ?? [])].join(" "),
        fieldErrors,
      };
    },
  },
  async (ctx, orgSlug, _prev: ActionResult | null, formData: FormData) => {
    const t = await formText();
    const { input, errors } = launchInputFromForm(formData, {
      envLine: (line) => t("envLine", { line }),
      idleBoth: t("idleBoth"),
      scheduleTimeZone: t("scheduleTimeZone"),
    });
    try {
      parseInput(launchSpecSchema, input);
    } catch (err) {
      // One submit shows every problem: the schema's and the form's own (a malformed KEY=VALUE line …).
      if (err instanceof ValidationError) {
        throw new ValidationError({ ...err.fieldErrors, ...errors }, err.message, {
          ...err.fieldMessages,
          ...new ValidationError(errors).fieldMessages,
        });
      }
      throw err;
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    const { instance } = await launch(ctx, orgSlug, input);
    return { redirectTo: `/${orgSlug}/instances/${instance.id}` };
  },
);

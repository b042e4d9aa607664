"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { requireUserCtx } from "@/lib/auth/session";
import type { ActionResult } from "@/lib/core";
import { leaveOrganization, renameOrganization, setDataResidency } from "@/lib/tenancy";
import { localizedActionError } from "./action-error";

export async function renameOrganizationAction(
  orgSlug: string,
  _prev: ActionResult | null,
  formData: FormData,
): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    await renameOrganization(ctx, orgSlug, { name: formData.get("name") });
  } catch (err) {
    return localizedActionError(err, "renameOrganization");
  }
  // The name also shows in the shell's organization switcher.
  revalidatePath(`/${orgSlug}`, "layout");
  return { ok: true, message: (await getTranslations("Settings"))("saved") };
}

export async function setDataResidencyAction(
  orgSlug: string,
  _prev: ActionResult | null,
  formData: FormData,
): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    await setDataResidency(ctx, orgSlug, { jurisdictions: formData.getAll("jurisdictions") });
  } catch (err) {
    return localizedActionError(err, "setDataResidency");
  }
  revalidatePath(`/${orgSlug}`, "layout");
  return { ok: true, message: (await getTranslations("Settings"))("saved") };
}

export async function leaveOrganizationAction(
  orgSlug: string,
  _prev: ActionResult | null,
  _formData: FormData,
): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    await leaveOrganization(ctx, orgSlug);
  } catch (err) {
    return localizedActionError(err, "leaveOrganization");
  }
  redirect("/");
}

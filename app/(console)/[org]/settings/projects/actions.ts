"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { requireUserCtx } from "@/lib/auth/session";
import type { ActionResult } from "@/lib/core";
import { createProject, updateProject } from "@/lib/tenancy";
import { localizedActionError } from "../action-error";

type Prev = ActionResult | null;
const fields = (fd: FormData, ...names: string[]) => Object.fromEntries(names.map((n) => [n, fd.get(n)]));

export async function createProjectAction(orgSlug: string, _prev: Prev, fd: FormData): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  let name: string;
  try {
    ({ name } = await createProject(ctx, orgSlug, fields(fd, "name", "slug", "environment")));
  } catch (err) {
    return localizedActionError(err, "createProject");
  }
  revalidatePath(`/${orgSlug}`, "layout");
  return { ok: true, message: (await getTranslations("Projects"))("createdMessage", { name }) };
}

export async function updateProjectAction(orgSlug: string, _prev: Prev, fd: FormData): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    await updateProject(ctx, orgSlug, fields(fd, "projectId", "name", "environment"));
  } catch (err) {
    return localizedActionError(err, "updateProject");
  }
  revalidatePath(`/${orgSlug}`, "layout");
  return { ok: true, message: (await getTranslations("Projects"))("updated") };
}

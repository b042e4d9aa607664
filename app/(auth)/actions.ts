"use server";

import { redirect } from "next/navigation";
import { signUp } from "@/lib/auth";
import { type ActionResult, toActionError } from "@/lib/core";

export async function signUpAction(_prev: ActionResult<{ orgSlug: string }> | null, formData: FormData) {
  try {
    const { org } = await signUp({}, Object.fromEntries(formData));
    return { ok: true, data: { orgSlug: org.slug } } satisfies ActionResult<{ orgSlug: string }>;
  } catch (err) {
    return toActionError(err, "signUp");
  }
}

export async function goTo(path: string) {
  redirect(path);
}

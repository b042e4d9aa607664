"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
// The settings area's error mapping (reason/code → catalog, field messages → catalog) serves sign-up too.
import { localizedActionError } from "@/app/(console)/[org]/settings/action-error";
import { signUp } from "@/lib/auth";
import type { ActionResult } from "@/lib/core";

export async function signUpAction(_prev: ActionResult<{ orgSlug: string }> | null, formData: FormData) {
  try {
    const h = await headers();
    const clientIp = h.get("x-forwarded-for")?.split(",")[0]?.trim() || h.get("x-real-ip") || "local";
    const { org } = await signUp({}, Object.fromEntries(formData), { clientIp });
    return { ok: true, data: { orgSlug: org.slug } } satisfies ActionResult<{ orgSlug: string }>;
  } catch (err) {
    return localizedActionError(err, "signUp", "AuthErrors");
  }
}

export async function goTo(path: string) {
  redirect(path);
}

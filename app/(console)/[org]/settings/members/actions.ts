"use server";

import { revalidatePath } from "next/cache";
import { getLocale, getTranslations } from "next-intl/server";
import { requireUserCtx } from "@/lib/auth/session";
import type { ActionResult } from "@/lib/core";
import {
  changeMemberRole,
  inviteMember,
  removeMember,
  resendInvitation,
  revokeInvitation,
} from "@/lib/tenancy";
import { localizedActionError } from "../action-error";

type Prev = ActionResult | null;
const fields = (fd: FormData, ...names: string[]) => Object.fromEntries(names.map((n) => [n, fd.get(n)]));

async function done(orgSlug: string, key: string, values?: Record<string, string>): Promise<ActionResult> {
  revalidatePath(`/${orgSlug}/settings/members`);
  return { ok: true, message: (await getTranslations("Members"))(key, values) };
}

export async function inviteMemberAction(orgSlug: string, _prev: Prev, fd: FormData): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  const raw = fields(fd, "email", "role");
  try {
    const { invitation } = await inviteMember(ctx, orgSlug, raw, { locale: await getLocale() });
    return done(orgSlug, "invited", { email: invitation.email });
  } catch (err) {
    return localizedActionError(err, "inviteMember");
  }
}

export async function resendInvitationAction(
  orgSlug: string,
  _prev: Prev,
  fd: FormData,
): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    await resendInvitation(ctx, orgSlug, fields(fd, "invitationId"), { locale: await getLocale() });
  } catch (err) {
    return localizedActionError(err, "resendInvitation");
  }
  return done(orgSlug, "resent");
}

export async function revokeInvitationAction(
  orgSlug: string,
  _prev: Prev,
  fd: FormData,
): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    await revokeInvitation(ctx, orgSlug, fields(fd, "invitationId"));
  } catch (err) {
    return localizedActionError(err, "revokeInvitation");
  }
  return done(orgSlug, "revoked");
}

export async function changeRoleAction(orgSlug: string, _prev: Prev, fd: FormData): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    await changeMemberRole(ctx, orgSlug, fields(fd, "userId", "role"));
  } catch (err) {
    return localizedActionError(err, "changeMemberRole");
  }
  return done(orgSlug, "roleChanged");
}

export async function removeMemberAction(orgSlug: string, _prev: Prev, fd: FormData): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    await removeMember(ctx, orgSlug, fields(fd, "userId"));
  } catch (err) {
    return localizedActionError(err, "removeMember");
  }
  return done(orgSlug, "removed");
}

"use server";

import { getLocale } from "next-intl/server";
import { orgFormAction, say } from "@/app/_kit/org-action";
import {
  changeMemberRole,
  inviteMember,
  removeMember,
  resendInvitation,
  revokeInvitation,
} from "@/lib/tenancy";

const opts = (label: string, fields: string[]) => ({
  label,
  fields,
  area: "SettingsErrors",
  revalidate: "/settings/members",
});

export const inviteMemberAction = orgFormAction(
  opts("inviteMember", ["email", "role"]),
  async (ctx, org, input) => {
    const { invitation } = await inviteMember(ctx, org, input, { locale: await getLocale() });
    return { message: await say("Members", "invited", { email: invitation.email }) };
  },
);

export const resendInvitationAction = orgFormAction(
  opts("resendInvitation", ["invitationId"]),
  async (ctx, org, input) => {
    await resendInvitation(ctx, org, input, { locale: await getLocale() });
    return { message: await say("Members", "resent") };
  },
);

export const revokeInvitationAction = orgFormAction(
  opts("revokeInvitation", ["invitationId"]),
  async (ctx, org, input) => {
    await revokeInvitation(ctx, org, input);
    return { message: await say("Members", "revoked") };
  },
);

export const changeRoleAction = orgFormAction(
  opts("changeMemberRole", ["userId", "role"]),
  async (ctx, org, input) => {
    await changeMemberRole(ctx, org, input);
    return { message: await say("Members", "roleChanged") };
  },
);

export const removeMemberAction = orgFormAction(opts("removeMember", ["userId"]), async (ctx, org, input) => {
  await removeMember(ctx, org, input);
  return { message: await say("Members", "removed") };
});

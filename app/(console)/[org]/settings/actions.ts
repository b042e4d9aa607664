"use server";

import { orgAction, say } from "@/app/_kit/org-action";
import { leaveOrganization, renameOrganization, setDataResidency } from "@/lib/tenancy";

const opts = (label: string) => ({
  label,
  area: "SettingsErrors",
  revalidate: { path: "", type: "layout" as const },
});

// The name also shows in the shell's organization switcher, hence the layout revalidation.
export const renameOrganizationAction = orgAction(
  opts("renameOrganization"),
  async (ctx, orgSlug, _prev: unknown, fd: FormData) => {
    await renameOrganization(ctx, orgSlug, { name: fd.get("name") });
    return { message: await say("Settings", "saved") };
  },
);

export const setDataResidencyAction = orgAction(
  opts("setDataResidency"),
  async (ctx, orgSlug, _prev: unknown, fd: FormData) => {
    await setDataResidency(ctx, orgSlug, { jurisdictions: fd.getAll("jurisdictions") });
    return { message: await say("Settings", "saved") };
  },
);

export const leaveOrganizationAction = orgAction(
  { label: "leaveOrganization", area: "SettingsErrors" },
  async (ctx, orgSlug, _prev: unknown, _fd: FormData) => {
    await leaveOrganization(ctx, orgSlug);
    return { redirectTo: "/" };
  },
);

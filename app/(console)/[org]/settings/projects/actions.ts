"use server";

import { orgFormAction, say } from "@/app/_kit/org-action";
import { createProject, updateProject } from "@/lib/tenancy";

const opts = { area: "SettingsErrors", revalidate: { path: "", type: "layout" as const } };

export const createProjectAction = orgFormAction(
  { ...opts, label: "createProject", fields: ["name", "slug", "environment"] },
  async (ctx, orgSlug, input) => {
    const { name } = await createProject(ctx, orgSlug, input);
    return { message: await say("Projects", "createdMessage", { name }) };
  },
);

export const updateProjectAction = orgFormAction(
  { ...opts, label: "updateProject", fields: ["projectId", "name", "environment"] },
  async (ctx, orgSlug, input) => {
    await updateProject(ctx, orgSlug, input);
    return { message: await say("Projects", "updated") };
  },
);

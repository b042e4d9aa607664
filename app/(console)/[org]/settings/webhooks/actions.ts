"use server";

import { orgAction, orgFormAction, say } from "@/app/_kit/org-action";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  resendWebhookDelivery,
  sendTestWebhook,
  setWebhookEnabled,
} from "@/lib/notify";

const opts = { area: "WebhookErrors", revalidate: { path: "/settings/webhooks", type: "layout" as const } };

/** The form posts one `events` field per ticked box. */
export const createWebhookAction = orgAction<[unknown, FormData], { secret: string; id: string }>(
  { ...opts, label: "createWebhookEndpoint" },
  async (ctx, orgSlug, _prev, fd) => {
    const { endpoint, secret } = await createWebhookEndpoint(ctx, orgSlug, {
      url: fd.get("url"),
      description: fd.get("description") ?? "",
      events: fd.getAll("events"),
      format: fd.get("format") ?? "standard",
    });
    return { data: { secret, id: endpoint.id }, message: await say("Webhooks", "created") };
  },
);

export const setWebhookEnabledAction = orgFormAction(
  { ...opts, label: "setWebhookEnabled", fields: ["id", "enabled"] },
  async (ctx, orgSlug, input) => {
    const { enabled } = await setWebhookEnabled(ctx, orgSlug, input.id, input.enabled);
    return { message: await say("Webhooks", enabled ? "resumed" : "paused") };
  },
);

export const deleteWebhookAction = orgFormAction<unknown>(
  { ...opts, label: "deleteWebhookEndpoint", fields: ["id"] },
  async (ctx, orgSlug, input) => {
    await deleteWebhookEndpoint(ctx, orgSlug, input.id);
    return { redirectTo: `/${orgSlug}/settings/webhooks` };
  },
);

export const sendTestWebhookAction = orgFormAction(
  { ...opts, label: "sendTestWebhook", fields: ["id"] },
  async (ctx, orgSlug, input) => {
    await sendTestWebhook(ctx, orgSlug, input.id);
    return { message: await say("Webhooks", "testQueued") };
  },
);

export const resendWebhookAction = orgFormAction(
  { ...opts, label: "resendWebhookDelivery", fields: ["deliveryId"] },
  async (ctx, orgSlug, input) => {
    await resendWebhookDelivery(ctx, orgSlug, input.deliveryId);
    return { message: await say("Webhooks", "resent") };
  },
);

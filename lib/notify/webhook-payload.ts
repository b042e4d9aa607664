import "server-only";

type Payload = { type: string; timestamp: string; data: Record<string, unknown> };

const str = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "");

/**
 * A one-line English summary of an event, for Slack-compatible endpoints (`{"text": …}`, which Slack,
 * Mattermost and Rocket.Chat incoming webhooks accept). The standard format sends the event itself.
 */
export function slackText(orgSlug: string, p: Payload): string {
  const d = p.data;
  const inst = (d.instance ?? {}) as Record<string, unknown>;
  const reason = (d.reason ?? {}) as Record<string, unknown>;
  switch (p.type) {
    case "instance.state_changed":
      return `Forja · ${orgSlug}: instance ${str(inst.name)} is now ${str(inst.state)} (was ${str(d.previousState) || "new"})${reason.text ? ` — ${str(reason.text)}` : ""}`;
    case "instance.spot_reclaimed":
      return `Forja · ${orgSlug}: spot instance ${str(inst.name)} was reclaimed — ${str(reason.text)}`;
    case "quota_request.decided":
      return `Forja · ${orgSlug}: quota request for ${str(d.gpusRequested)} × ${str(d.gpuModel)} in ${str(d.region)} was ${str(d.status)}${d.grantedGpus != null ? ` (${str(d.grantedGpus)} granted)` : ""}`;
    case "webhook.test":
      return `Forja · ${orgSlug}: test event — this endpoint receives Forja events`;
    default:
      return `Forja · ${orgSlug}: ${str(d.title) || p.type}${d.body ? ` — ${str(d.body)}` : ""}`;
  }
}

export function requestBody(format: "standard" | "slack", orgSlug: string, payload: Payload): string {
  return JSON.stringify(format === "slack" ? { text: slackText(orgSlug, payload) } : payload);
}

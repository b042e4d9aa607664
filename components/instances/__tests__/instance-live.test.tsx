import { NextIntlClientProvider } from "next-intl";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { InstanceDetailView } from "@/lib/provisioning";
import { messagesFor } from "@/messages";
import { InstanceLive } from "../instance-live";

/** Issue 12 item 3: a viewer's instance page has no Connection section (not an empty "not running" one). */
function render(canConnect: boolean, connection: Record<string, string> | null) {
  const detail = {
    id: "00000000-0000-0000-0000-000000000001",
    name: "nb-1",
    kind: "notebook",
    state: "running",
    stateReason: null,
    borrowed: false,
    queueReason: null,
    regionCode: "eu-mad-1",
    instanceTypeId: "h100.1x",
    gpuModelName: "H100",
    gpuCount: 1,
    migProfile: null,
    pricingModel: "on_demand",
    projectSlug: "default",
    projectName: "Default",
    createdAt: "2030-01-01T00:00:00.000Z",
    actions: [],
    costUsd: null,
    connection,
    events: [],
    queue: null,
    cost: null,
    now: "2030-01-01T01:00:00.000Z",
  } as unknown as InstanceDetailView;
  return renderToStaticMarkup(
    <NextIntlClientProvider locale="en" messages={messagesFor("en")} timeZone="UTC">
      <InstanceLive
        org="acme"
        initial={detail}
        run={async () => ({ ok: true }) as never}
        canConnect={canConnect}
      />
    </NextIntlClientProvider>,
  );
}

describe("InstanceLive", () => {
  it("shows the Connection section to members and up, none at all to a viewer", () => {
    const member = render(true, { url: "https://nb-1.example/?token=t0k" });
    expect(member).toContain('id="connection-heading"');
    expect(member).toContain("https://nb-1.example/?token=t0k");
    const viewer = render(false, null);
    expect(viewer).not.toContain('id="connection-heading"');
    expect(viewer).toContain("nb-1");
  });
});

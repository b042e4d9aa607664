import fs from "node:fs";
import { type Browser, expect, test } from "@playwright/test";
import { KUBERNETES_REGION } from "./support/engines";
import { as, expectAccessible } from "./support/fixtures";
import { connectionToken, stateOf, terminateOnPage } from "./support/instance-page";

/**
 * A region served by Kubernetes: the API server stand-in of the tests (started by the global setup; every object
 * Forja sends is validated against the Kubernetes schemas, and a small scheduler/kubelet runs the pods). The
 * cluster places the notebook's pod; admins review the manifests Forja applied, with the token redacted.
 */
const LIVE = { timeout: 90_000 };

async function pageAs(browser: Browser, role: Parameters<typeof as>[0]) {
  const context = await browser.newContext(as(role));
  return { page: await context.newPage(), close: () => context.close() };
}

test.describe("a notebook on the Kubernetes-backed region, as an admin", () => {
  test.use(as("admin"));

  test("launch it as a pod, see it run, review and download its manifests (token redacted), terminate it", async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    await page.goto(
      `/acme-ai/instances/new?${new URLSearchParams({ instanceType: "h100.1x", region: KUBERNETES_REGION, pricing: "on_demand" })}`,
    );
    await expect(page.getByLabel("Region")).toHaveValue(KUBERNETES_REGION);
    const name = `k8s-${Date.now().toString(36)}`;
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    await expect(page).toHaveURL(/\/acme-ai\/instances\/[0-9a-f-]{36}$/, LIVE);
    const id = page.url().split("/").at(-1) as string;
    await expect(stateOf(page)).toHaveAccessibleName("State: Running", LIVE);
    await expect(page.getByText(/Placed by the cluster on \S*gpu-ams-\d/)).toBeVisible();

    const connection = page.getByRole("region", { name: "Connection" });
    await expect(connection.getByRole("button", { name: "Copy Token" })).toBeVisible();
    const token = await connectionToken(page);
    expect(token.length).toBeGreaterThan(16);

    const manifests = page.getByRole("region", { name: "Kubernetes manifests" });
    const yaml = manifests.getByLabel("Manifests (YAML)");
    await expect(yaml).toHaveValue(/kind: Pod/);
    await expect(yaml).toHaveValue(/nvidia\.com\/gpu/);
    await expect(yaml).toHaveValue(/<redacted>/);
    expect(await yaml.inputValue()).not.toContain(token);
    await expectAccessible(page);

    const downloading = page.waitForEvent("download");
    await manifests.getByRole("link", { name: "Download YAML" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`forja-${id}.yaml`);
    const file = fs.readFileSync(await download.path(), "utf8");
    expect(file).toContain("kind: Pod");
    expect(file).not.toContain(token);

    // The API gives admins the same objects as JSON; a member gets neither the section nor the route.
    const api = `/api/v1/orgs/acme-ai/instances/${id}/manifests`;
    const body = await (await page.request.get(api)).json();
    expect(body.objects.map((o: { kind: string }) => o.kind)).toEqual(
      expect.arrayContaining(["Namespace", "Secret", "Service", "Pod"]),
    );
    const member = await pageAs(browser, "member");
    await member.page.goto(page.url());
    await expect(stateOf(member.page)).toHaveAccessibleName("State: Running");
    await expect(member.page.getByRole("region", { name: "Kubernetes manifests" })).toHaveCount(0);
    const refused = await member.page.request.get(api);
    expect(refused.status()).toBe(403);
    expect(refused.headers()["content-type"]).toBe("application/problem+json");
    await member.close();

    await terminateOnPage(page, name, LIVE.timeout);
  });
});

import fs from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { KUBERNETES_REGION } from "./support/engines";
import { as, expectAccessible } from "./support/fixtures";
import { connectionToken, stateOf, stopOnPage, terminateOnPage } from "./support/instance-page";

/**
 * A region served by Kubernetes: the API server stand-in of the tests (started by the global setup; every object
 * Forja sends is validated against the Kubernetes schemas, a small scheduler/kubelet runs the pods, and a DCGM
 * exporter stand-in reports their GPUs). The cluster places the pods; their logs come from the pod log API and
 * their GPU readings from the exporter; admins review the manifests Forja applied, with the token redacted.
 */
const LIVE = { timeout: 90_000 };

/** Launch from the form on the Kubernetes region (`fill` sets the rest); waits for the instance page to run it. */
async function launchOnCluster(page: Page, instanceType: string, name: string, fill?: () => Promise<void>) {
  await page.goto(
    `/acme-ai/instances/new?${new URLSearchParams({ instanceType, region: KUBERNETES_REGION, pricing: "on_demand" })}`,
  );
  await expect(page.getByLabel("Region")).toHaveValue(KUBERNETES_REGION);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await fill?.();
  await page.getByRole("button", { name: "Launch", exact: true }).click();
  await expect(page).toHaveURL(/\/acme-ai\/instances\/[0-9a-f-]{36}$/, LIVE);
  const id = page.url().split("/").at(-1) as string;
  await expect(stateOf(page)).toHaveAccessibleName("State: Running", LIVE);
  await expect(page.getByText(/Placed by the cluster on \S*gpu-ams-\d/)).toBeVisible();
  return id;
}

/**
 * The instance page's GPU readings (the first metrics pass is 10 s): one GPU shows as itself; several show as
 * their average first, and "Per GPU" shows a row for each, every one with a utilization in percent.
 */
async function expectGpuReadings(page: Page, gpus: number) {
  const util = page.getByRole("region", { name: "GPU utilization", exact: true });
  const percent = /\d+(\.\d+)? %/;
  if (gpus > 1) {
    await expect(util.getByRole("row", { name: new RegExp(`^Average of ${gpus} GPUs`) })).toContainText(
      percent,
      LIVE,
    );
    await page.getByRole("region", { name: "GPU metrics" }).getByRole("link", { name: "Per GPU" }).click();
    await expect(page).toHaveURL(/gpus=each/);
  }
  for (let i = 0; i < gpus; i++)
    await expect(util.getByRole("row", { name: new RegExp(`GPU ${i}\\b`) })).toContainText(percent, LIVE);
}

async function pageAs(browser: Browser, role: Parameters<typeof as>[0]) {
  const context = await browser.newContext(as(role));
  return { page: await context.newPage(), close: () => context.close() };
}

test.describe("a notebook on the Kubernetes-backed region, as an admin", () => {
  test.use(as("admin"));

  test("launch it as a pod, see it run with its logs and GPU readings, review and download its manifests (token redacted), stop it", async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    const name = `k8s-${Date.now().toString(36)}`;
    const id = await launchOnCluster(page, "h100.1x", name);

    const connection = page.getByRole("region", { name: "Connection" });
    await expect(connection.getByRole("button", { name: "Copy Token" })).toBeVisible();
    const token = await connectionToken(page);
    expect(token.length).toBeGreaterThan(16);

    // Its logs from the pod log API (the kubelet's start line), its GPU from the DCGM exporter.
    // The logs load once their section scrolls into view, as a person scrolls down to read them.
    await page.getByRole("region", { name: "Logs", exact: true }).scrollIntoViewIfNeeded();
    await expect(page.getByRole("log", { name: "Logs" })).toContainText(/started \S+ on gpu-ams-\d/, LIVE);
    await expectGpuReadings(page, 1);

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

    // Stop deletes the pod (the disk is kept); the cluster's confirmation moves it to stopped.
    await stopOnPage(page, name, LIVE.timeout);
    await terminateOnPage(page, name, LIVE.timeout);
  });
});

test.describe("a container on the Kubernetes-backed region, as a member", () => {
  test.use(as("member"));

  test("launch it as a pod on two GPUs, read its command's output and both GPUs' readings, stop it", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const name = `k8c-${Date.now().toString(36)}`;
    await launchOnCluster(page, "h100.2x", name, async () => {
      await page
        .getByRole("group", { name: "Kind" })
        .getByRole("radio", { name: /^Container/ })
        .check();
      await page
        .getByLabel("Command", { exact: true })
        .fill("echo 'epoch 1 loss=0.93' && echo 'epoch 2 loss=0.71'; sleep 3600");
    });

    await page.getByRole("region", { name: "Logs", exact: true }).scrollIntoViewIfNeeded();
    const logs = page.getByRole("log", { name: "Logs" });
    await expect(logs).toContainText("epoch 2 loss=0.71", LIVE);
    await expect(logs).toContainText("epoch 1 loss=0.93");
    await expectGpuReadings(page, 2);
    await expectAccessible(page);

    await stopOnPage(page, name, LIVE.timeout);
    await terminateOnPage(page, name, LIVE.timeout);
  });
});

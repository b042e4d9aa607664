import { expect, test } from "@playwright/test";
import { KUBERNETES_REGION } from "./support/engines";
import { as } from "./support/fixtures";

/**
 * A service on the Kubernetes region: each replica is a Deployment in the API server stand-in, whose kubelet
 * runs the pod's server on the pod's own loopback address; a request through the gateway scales it from zero
 * and is answered by that pod. Deleting the service removes the replica.
 */
test.use(as("member"));
const LIVE = { timeout: 120_000 };

test("a service on the Kubernetes region scales from zero and is answered by its pod, then is deleted", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const name = `k8s-${Date.now().toString(36)}`;
  await page.goto("/acme-ai/services/new");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Model-server image").selectOption("pytorch-2.5-cuda12.4");
  await page.getByLabel("Region").selectOption(KUBERNETES_REGION);
  await page.getByLabel("GPU offering per replica").selectOption("h100.1x");
  // The pod's server listens on this port of its own address.
  await page.getByLabel("Port").fill(String(20_000 + Math.floor(Math.random() * 30_000)));
  await page.getByLabel("Minimum replicas").fill("0");
  await page.getByLabel("Maximum replicas").fill("1");
  await page.getByLabel("Authentication").selectOption("public");
  await page.getByRole("button", { name: "Create service" }).click();
  await expect(page).toHaveURL(/\/acme-ai\/services\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();

  const curl = (await page.getByRole("region", { name: "Endpoint" }).locator("code").textContent()) ?? "";
  const endpoint = curl.replace(/^curl\s+/, "").trim();
  // Held while the Deployment's pod is placed, starts and passes its readiness probe; answered by the pod.
  const res = await fetch(endpoint);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { replica: string }).replica).toMatch(/^forja-[0-9a-f]{12}-/);

  const figures = page.getByRole("region", { name: "Traffic and cost" });
  await expect(async () => {
    await page.reload();
    await expect(figures.getByText(/^1 ready of 1 desired$/)).toBeVisible({ timeout: 1000 });
  }).toPass(LIVE);

  await page.getByRole("button", { name: "Delete service" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete service" }).click();
  await expect(page).toHaveURL(/\/acme-ai\/services$/);
  await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
});

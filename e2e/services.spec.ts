import { expect, test } from "@playwright/test";
import { as, expectAccessible } from "./support/fixtures";

/**
 * An inference service as a member: created in the console, sent real traffic from the test through the
 * gateway (the endpoint read off its page), scaled from zero by the worker's autoscaler, its figures on its
 * page, then deleted. Cold starts are 3 s in e2e (global-setup); the simulated provider provisions the replica.
 */
test.use(as("member"));
const LIVE = { timeout: 120_000 };

test("create a service, send it traffic, watch replicas rise and its cost per 1,000 requests, delete it", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const name = `chat-${Date.now().toString(36)}`;
  await page.goto("/acme-ai/catalog");
  await page.getByRole("link", { name: "Services", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Services", exact: true })).toBeVisible();
  await page.goto("/acme-ai/services/new");

  // Refused at the fields, nothing created.
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Model-server image").selectOption("pytorch-2.5-cuda12.4");
  await page.getByLabel("Region").selectOption("eu-fi-hel1");
  await page.getByLabel("GPU offering per replica").selectOption("l4.1x");
  await page.getByLabel("Minimum replicas").fill("3");
  await page.getByLabel("Maximum replicas").fill("2");
  await page.getByRole("button", { name: "Create service" }).click();
  await expect(page.getByLabel("Maximum replicas")).toHaveAccessibleDescription(
    /The maximum cannot be below the minimum/,
  );
  await expectAccessible(page);

  await page.getByLabel("Minimum replicas").fill("0");
  await page.getByLabel("Maximum replicas").fill("3");
  await page.getByLabel("Target per replica").fill("1");
  await page.getByLabel("Authentication").selectOption("public");
  await page.getByRole("button", { name: "Create service" }).click();
  await expect(page).toHaveURL(/\/acme-ai\/services\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
  await expect(page.getByText("Scaled to zero")).toBeVisible();

  const curl = (await page.getByRole("region", { name: "Endpoint" }).locator("code").textContent()) ?? "";
  const endpoint = curl.replace(/^curl\s+/, "").trim();
  expect(endpoint).toMatch(new RegExp(`^http://localhost:\\d+/acme-ai/s/${name}/$`));

  // Traffic from the test: a request during scale-from-zero waits and succeeds.
  let ok = 0;
  let stop = false;
  const client = async () => {
    while (!stop) {
      const res = await fetch(endpoint).catch(() => null);
      if (res?.ok) ok++;
      await res?.arrayBuffer().catch(() => null);
    }
  };
  const clients = Array.from({ length: 6 }, client);
  const figures = page.getByRole("region", { name: "Traffic and cost" });
  try {
    await expect(async () => {
      await page.reload();
      await expect(figures.getByText(/^[1-9]\d* ready of [1-9]\d* desired$/)).toBeVisible({ timeout: 1000 });
    }).toPass(LIVE);
    expect(ok).toBeGreaterThan(0);
    await expect(async () => {
      await page.reload();
      await expect(
        figures.locator("div", { hasText: "Cost per 1,000 requests" }).getByText(/^\$\d/),
      ).toBeVisible({ timeout: 1000 });
    }).toPass(LIVE);
  } finally {
    stop = true;
    await Promise.all(clients);
  }
  await expect(
    page
      .getByRole("region", { name: "Events" })
      .getByText(/Scale from zero|Scaled up/)
      .first(),
  ).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Delete service" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete service" }).click();
  await expect(page).toHaveURL(/\/acme-ai\/services$/);
  await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
});

/**
 * The service kind of the shared launch form (same form and checks as /services/new), its charts, and access
 * changed on the live service: made token-protected, the gateway refuses a call without the new token and
 * answers one with it.
 */
test("launch a service from the launch form, then require a service token: refused without it, served with it", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const name = `tok-${Date.now().toString(36)}`;
  await page.goto("/acme-ai/instances/new");
  await page.getByRole("radio", { name: /^Service/ }).check();
  await expect(page).toHaveURL(/kind=service/);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Model-server image").selectOption("pytorch-2.5-cuda12.4");
  await page.getByLabel("Region").selectOption("eu-fi-hel1");
  await page.getByLabel("GPU offering per replica").selectOption("l4.1x");
  // The service form's own checks, here too.
  await page.getByLabel("Port").fill("70000");
  await page.getByRole("button", { name: "Create service" }).click();
  await expect(page.getByLabel("Port")).toHaveAccessibleDescription(/1 to 65535|65535/);
  await page.getByLabel("Port").fill("8000");
  await page.getByLabel("Minimum replicas").fill("1");
  await page.getByLabel("Maximum replicas").fill("1");
  await page.getByLabel("Authentication").selectOption("public");
  await page.getByRole("button", { name: "Create service" }).click();
  await expect(page).toHaveURL(/\/acme-ai\/services\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
  // The charts are drawn (loaded after the page): replicas over time at least.
  await expect(page.getByRole("heading", { name: "Replicas over time" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Requests per second" })).toBeVisible();

  const curl = (await page.getByRole("region", { name: "Endpoint" }).locator("code").textContent()) ?? "";
  const endpoint = curl.replace(/^curl\s+/, "").trim();
  await expect(async () => {
    expect((await fetch(endpoint)).status).toBe(200);
  }).toPass(LIVE);

  const access = page.getByRole("region", { name: "Access" });
  await access.getByLabel("Authentication").selectOption("token");
  await access.getByRole("button", { name: "Save access" }).click();
  const issued = access.getByRole("status").filter({ hasText: "New service token" });
  await expect(issued).toBeVisible();
  const token = ((await issued.locator("code").textContent()) ?? "").trim();
  expect(token).toMatch(/^fsvc_/);
  await expect(page.getByRole("region", { name: "Endpoint" }).locator("code")).toContainText(
    "Authorization: Bearer",
  );
  await expect(async () => {
    expect((await fetch(endpoint)).status).toBe(401);
    expect((await fetch(endpoint, { headers: { authorization: "Bearer fsvc_wrong" } })).status).toBe(401);
  }).toPass({ timeout: 10_000 });
  const served = await fetch(endpoint, { headers: { authorization: `Bearer ${token}` } });
  expect(served.status).toBe(200);
  await expect(
    page.getByRole("region", { name: "Events" }).getByText(/calls need a service token/),
  ).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Delete service" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete service" }).click();
  await expect(page).toHaveURL(/\/acme-ai\/services$/);
});

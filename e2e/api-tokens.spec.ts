import { expect, test } from "@playwright/test";
import { as, expectAccessible } from "./support/fixtures";

// Tokyo L4: an offering the other journeys do not count on, so this launch never skews their quota numbers.
const SPEC = {
  kind: "notebook",
  region: "apac-jp-tyo1",
  instanceType: "l4.1x",
  image: "pytorch-2.5-cuda12.4",
};
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test.describe("API tokens as a member", () => {
  test.use(as("member"));

  test("create a token, see it once, use it to list and launch, revoke it, and the next call is 401", async ({
    page,
    playwright,
    baseURL,
  }) => {
    await page.goto("/acme-ai/settings");
    await page
      .getByRole("navigation", { name: "Settings sections" })
      .getByRole("link", { name: "API tokens" })
      .click();
    await expect(page).toHaveURL(/\/acme-ai\/settings\/tokens$/);
    await expect(page.getByRole("heading", { name: "API tokens", level: 2 })).toBeVisible();
    await expectAccessible(page);

    // A name is required, and the message is tied to the field.
    await page.getByRole("button", { name: "Create token" }).click();
    await expect(page.getByLabel("Token name")).toHaveAccessibleDescription(/Enter a name for the token/);

    const name = unique("ci");
    await page.getByLabel("Token name").fill(name);
    await page.getByLabel("Expires after").selectOption("30");
    await page.getByRole("button", { name: "Create token" }).click();

    const reveal = page.getByRole("region", { name: "Copy your new token now" });
    await expect(reveal).toBeVisible();
    await expect(reveal.getByRole("heading", { name: "Copy your new token now" })).toBeFocused();
    await expect(reveal).toContainText("This is the only time Forja shows this token");
    const secret = await reveal.getByLabel("New API token").inputValue();
    expect(secret).toMatch(/^forja_[0-9a-f]{8}_[0-9a-f]{64}$/);
    await expect(reveal.getByRole("figure")).toContainText(`Bearer ${secret}`);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await reveal.getByRole("button", { name: "Copy token" }).click();
    await expect(reveal.getByRole("status")).toHaveText("Token copied to the clipboard.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expectAccessible(page);

    const row = page.getByRole("row", { name: new RegExp(name) });
    await expect(row).toContainText(secret.slice(0, 14));
    await expect(row).toContainText("Active");
    await expect(row).toContainText("Never");

    // The token works on its own: a request context without the browser's cookies.
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { authorization: `Bearer ${secret}` },
    });
    const listed = await api.get("/api/v1/orgs/acme-ai/instances");
    expect(listed.status()).toBe(200);
    expect(await listed.json()).toMatchObject({ page: 1, items: expect.any(Array) });
    const me = await (await api.get("/api/v1/me")).json();
    expect(me).toMatchObject({
      authentication: "token",
      organizations: [{ slug: "acme-ai", role: "member" }],
    });
    const [project] = (await (await api.get("/api/v1/orgs/acme-ai/projects")).json()).items;

    const launched = await api.post("/api/v1/orgs/acme-ai/instances", {
      headers: { "idempotency-key": name },
      data: { ...SPEC, name, project: project.slug },
    });
    expect(launched.status()).toBe(201);
    const instance = await launched.json();
    expect(launched.headers().location).toBe(`/api/v1/orgs/acme-ai/instances/${instance.id}`);
    expect((await api.get(launched.headers().location as string)).status()).toBe(200);
    // Leave no GPUs held for other journeys.
    expect((await api.post(`/api/v1/orgs/acme-ai/instances/${instance.id}/terminate`)).status()).toBe(200);

    // Shown once: after "stored" and a reload, the secret is nowhere on the page; the last use is.
    await reveal.getByRole("button", { name: "I have stored it" }).click();
    await expect(reveal).toBeHidden();
    await page.reload();
    await expect(page.getByLabel("New API token")).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText(secret.slice(15));
    await expect(row).not.toContainText("Never");

    await row.getByRole("button", { name: `Revoke token ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: `Revoke ${name}?` });
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await dialog.getByRole("button", { name: "Revoke token" }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText("Revoked");
    await expect(row.getByRole("button", { name: `Revoke token ${name}` })).toHaveCount(0);

    const refused = await api.get("/api/v1/orgs/acme-ai/instances");
    expect(refused.status()).toBe(401);
    expect(refused.headers()["content-type"]).toBe("application/problem+json");
    expect(await refused.json()).toMatchObject({ status: 401, title: "Unauthorized" });
    await api.dispose();
  });
});

test.describe("a read-only token and the API reference", () => {
  test.use(as("member"));

  test("a read-only token reads (with rate-limit headers) and is refused a launch; the reference lists the endpoints", async ({
    page,
    playwright,
    baseURL,
  }) => {
    // axe over the whole API reference (every operation's tables, ~130 of them) takes most of a minute on
    // 2 shared cores: the default 60 s left no room for the token steps before it.
    test.slow();
    await page.goto("/acme-ai/settings/tokens");
    const name = unique("ro");
    await page.getByLabel("Token name").fill(name);
    await expect(page.getByLabel("Scope")).toHaveAccessibleDescription(/never launch, stop or change/);
    await page.getByLabel("Scope").selectOption({ label: "Read only" });
    await page.getByRole("button", { name: "Create token" }).click();
    const secret = await page
      .getByRole("region", { name: "Copy your new token now" })
      .getByLabel("New API token")
      .inputValue();
    await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("Read only");

    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { authorization: `Bearer ${secret}` },
    });
    const listed = await api.get("/api/v1/orgs/acme-ai/instances?limit=2");
    expect(listed.status()).toBe(200);
    expect(listed.headers()["ratelimit-policy"]).toMatch(/^"read";q=\d+;w=60$/);
    const page1 = await listed.json();
    expect(page1.items.length).toBeLessThanOrEqual(2);
    expect(page1).toHaveProperty("next");
    const [project] = (await (await api.get("/api/v1/orgs/acme-ai/projects")).json()).items;
    const launch = await api.post("/api/v1/orgs/acme-ai/instances", {
      data: { ...SPEC, name, project: project.slug },
    });
    expect(launch.status()).toBe(403);
    expect(await launch.json()).toMatchObject({ reason: "token_read_only" });
    await api.dispose();

    await page
      .getByRole("navigation", { name: "Settings sections" })
      .getByRole("link", { name: "API reference" })
      .click();
    await expect(page).toHaveURL(/\/acme-ai\/settings\/api$/);
    await expect(page.getByRole("heading", { name: "API reference", level: 2 })).toBeVisible();
    const create = page.getByRole("article", { name: "post /api/v1/orgs/{org}/budgets" });
    await expect(create).toContainText("Create a monthly budget");
    await expect(create.getByRole("table", { name: "Parameters" })).toContainText("Idempotency-Key");
    await expect(create.getByRole("table", { name: "Body (JSON)" })).toContainText("amountUsd");
    await page
      .getByRole("navigation", { name: "API sections" })
      .getByRole("link", { name: "Instances" })
      .click();
    await expect(
      page.getByRole("article", { name: "get /api/v1/orgs/{org}/instances/{id}/queue" }),
    ).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe("API tokens as a viewer", () => {
  test.use(as("viewer"));

  test("sees why they cannot create one, and the API usage", async ({ page }) => {
    await page.goto("/acme-ai/settings/tokens");
    await expect(page.getByRole("note")).toContainText("Viewers cannot create tokens");
    await expect(page.getByRole("button", { name: "Create token" })).toHaveCount(0);
    await expect(page.getByText("You have no tokens.")).toBeVisible();
    // The console's own calls to the API still use the session cookie.
    const me = await page.request.get("/api/v1/me");
    expect(await me.json()).toMatchObject({ authentication: "session", user: { email: "viewer@acme.test" } });
    const instances = await page.request.get("/api/v1/orgs/acme-ai/instances");
    expect(instances.status()).toBe(200);
    const [project] = (await (await page.request.get("/api/v1/orgs/acme-ai/projects")).json()).items;
    const launch = await page.request.post("/api/v1/orgs/acme-ai/instances", {
      data: { ...SPEC, name: unique("viewer"), project: project.slug },
    });
    expect(launch.status()).toBe(403);
    await expect(page.getByRole("link", { name: "OpenAPI 3.1 document" })).toHaveAttribute(
      "href",
      "/api/v1/openapi.json",
    );
    await expectAccessible(page);
  });
});

test("another organization's owner gets 404 for acme-ai with their token", async ({
  playwright,
  baseURL,
  browser,
}) => {
  const context = await browser.newContext(as("other"));
  const page = await context.newPage();
  await page.goto("/globex/settings/tokens");
  await page.getByLabel("Token name").fill(unique("globex"));
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = await page.getByLabel("New API token").inputValue();
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${secret}` },
  });
  expect((await api.get("/api/v1/orgs/globex/instances")).status()).toBe(200);
  const res = await api.get("/api/v1/orgs/acme-ai/instances");
  expect(res.status()).toBe(404);
  expect(res.headers()["content-type"]).toBe("application/problem+json");
  await api.dispose();
  await context.close();
});

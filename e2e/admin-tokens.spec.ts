import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { signUpFresh } from "./support/accounts";
import { type E2EState, STATE_FILE } from "./support/env";
import { as, expectAccessible } from "./support/fixtures";

/**
 * Issue 10: the token form's "Admin" scope. Only a platform operator signed in to the console sees it; the
 * admin token reaches /api/v1/admin, the same operator's write token does not. The seeded demo operator
 * belongs to no organization (so has no token page); a fresh account's owner is made an operator instead,
 * and demoted again at the end, so no other journey sees an extra operator.
 */
const ADMIN = "Admin (platform operator)";
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function setOperator(email: string, isOperator: boolean): Promise<void> {
  const state = JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as E2EState;
  const client = new pg.Client({ connectionString: state.databaseUrl });
  await client.connect();
  try {
    const res = await client.query("update users set is_operator = $2 where email = $1", [email, isOperator]);
    expect(res.rowCount).toBe(1);
  } finally {
    await client.end();
  }
}

/** Create a token through the form with the scope chosen by its label; returns the secret shown once. */
async function createToken(page: Page, name: string, scope: string): Promise<string> {
  await page.getByLabel("Token name").fill(name);
  await page.getByLabel("Scope").selectOption({ label: scope });
  await page.getByRole("button", { name: "Create token" }).click();
  const reveal = page.getByRole("region", { name: "Copy your new token now" });
  await expect(reveal).toBeVisible();
  await expect(reveal).toContainText("This is the only time Forja shows this token");
  const secret = await reveal.getByLabel("New API token").inputValue();
  expect(secret).toMatch(/^forja_[0-9a-f]{8}_[0-9a-f]{64}$/);
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText(scope);
  await reveal.getByRole("button", { name: "I have stored it" }).click();
  await expect(reveal).toBeHidden();
  return secret;
}

test("an operator creates an Admin token that reaches /api/v1/admin; their write token gets 403", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await signUpFresh(page, "optok");
  await setOperator(owner.email, true);
  try {
    await page.goto(`/${owner.orgSlug}/settings/tokens`);
    await expect(page.getByRole("heading", { name: "API tokens", level: 2 })).toBeVisible();
    const scope = page.getByLabel("Scope");
    await expect(scope.getByRole("option", { name: ADMIN })).toHaveCount(1);
    await expect(scope).toHaveAccessibleDescription(/Admin tokens also reach the operators' API/);
    await expectAccessible(page);

    const adminName = unique("ops");
    const adminSecret = await createToken(page, adminName, ADMIN);
    const writeSecret = await createToken(page, unique("ci"), "Read and write");
    await expectAccessible(page);

    // Shown once: after a reload the secrets are nowhere on the page.
    await page.reload();
    await expect(page.getByLabel("New API token")).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText(adminSecret.slice(15));
    await expect(page.locator("body")).not.toContainText(writeSecret.slice(15));
    await expect(page.getByRole("row", { name: new RegExp(adminName) })).toContainText(ADMIN);

    const bearer = (secret: string) => ({ headers: { authorization: `Bearer ${secret}` } });
    const ok = await request.get("/api/v1/admin/quota-requests", bearer(adminSecret));
    expect(ok.status()).toBe(200);
    expect(await ok.json()).toMatchObject({ items: expect.any(Array) });
    // Still a token of its organization for tenant routes.
    expect((await request.get(`/api/v1/orgs/${owner.orgSlug}/projects`, bearer(adminSecret))).status()).toBe(
      200,
    );

    const refused = await request.get("/api/v1/admin/quota-requests", bearer(writeSecret));
    expect(refused.status()).toBe(403);
    expect(refused.headers()["content-type"]).toBe("application/problem+json");
    expect(await refused.json()).toMatchObject({ status: 403 });

    // Demoted, the admin token loses the admin API at once, and the form stops offering the scope.
    await setOperator(owner.email, false);
    expect((await request.get("/api/v1/admin/quota-requests", bearer(adminSecret))).status()).toBe(403);
    await page.reload();
    await expect(page.getByLabel("Scope").getByRole("option", { name: ADMIN })).toHaveCount(0);
  } finally {
    await setOperator(owner.email, false);
  }
});

test.describe("a member's token form", () => {
  test.use(as("member"));

  test("offers read and write scopes but no Admin", async ({ page }) => {
    await page.goto("/acme-ai/settings/tokens");
    const scope = page.getByLabel("Scope");
    await expect(scope.getByRole("option", { name: "Read and write" })).toHaveCount(1);
    await expect(scope.getByRole("option", { name: "Read only" })).toHaveCount(1);
    await expect(scope.getByRole("option", { name: /Admin/ })).toHaveCount(0);
    await expect(scope).not.toHaveAccessibleDescription(/operators' API/);
    await expectAccessible(page);
  });
});

import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";

/** The provider's own development screens: a login form, then a consent screen. */
async function signInAtProvider(page: Page, login: string) {
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any-password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

test("single sign-on creates the account and lands in the new user's organization; the next sign-in reuses it", async ({
  page,
}) => {
  const local = `sso-${randomUUID().slice(0, 8)}`;
  const email = `${local}@newco.test`;
  await page.goto("/signin");
  await page.getByRole("button", { name: "Sign in with Acme SSO" }).click();
  await signInAtProvider(page, email);

  await expect(page).toHaveURL(/\/[a-z0-9-]+\/catalog$/, { timeout: 20_000 });
  const slug = new URL(page.url()).pathname.split("/")[1];
  expect(slug).toBe(`${local}-s-organization`);
  await expect(page.getByRole("combobox", { name: "Switch organization" })).toContainText(
    `${local}'s organization`,
  );
  await expect(page.getByText(email)).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.getByRole("button", { name: "Sign in with Acme SSO" }).click();
  // The provider may remember the session and skip its screens; either way we come back to the same place.
  if (/\/interaction\//.test(page.url()) || (await page.locator('input[name="login"]').count()) > 0) {
    await signInAtProvider(page, email);
  }
  await expect(page).toHaveURL(new RegExp(`/${slug}/catalog$`), { timeout: 20_000 });
  await expect(page.getByRole("combobox", { name: "Switch organization" }).locator("option")).toHaveCount(1);
});

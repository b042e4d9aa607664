import { expect, test } from "@playwright/test";
import { signUpFresh } from "./support/accounts";
import { USERS } from "./support/env";
import { expectAccessible } from "./support/fixtures";

test("signing up lands in the new organization's catalog, signed in", async ({ page }) => {
  const account = await signUpFresh(page, "signup");
  expect(account.orgSlug).toMatch(/^signup-labs-/);
  await expect(page.getByRole("heading", { name: "Catalog" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Switch organization" })).toHaveValue(account.orgSlug);
  await expect(page.getByText(account.email)).toBeVisible();
});

test.describe("the sign-up form refuses bad input with messages at the fields", () => {
  test("empty fields", async ({ page }) => {
    await page.goto("/signup");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByLabel("Your name")).toHaveAccessibleDescription("Enter your name");
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription(/Enter an email address/);
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription(/Use at least 12 characters/);
    await expect(page.getByLabel("Organization name")).toHaveAccessibleDescription(/at least 2 characters/);
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("a too long name and a malformed email, keeping what was typed", async ({ page }) => {
    await page.goto("/signup");
    await page.getByLabel("Your name").fill("n".repeat(101));
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password").fill("a-long-enough-password");
    await page.getByLabel("Organization name").fill("Typo Labs");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByLabel("Your name")).toHaveAccessibleDescription(
      "Names are at most 100 characters",
    );
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription(/Enter a valid email address/);
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Email")).toHaveValue("not-an-email");
    await expect(page.getByLabel("Organization name")).toHaveValue("Typo Labs");
  });

  test("an email that already has an account", async ({ page }) => {
    await page.goto("/signup");
    await page.getByLabel("Your name").fill("Copy Cat");
    await page.getByLabel("Email").fill(USERS.owner.email.toUpperCase());
    await page.getByLabel("Password").fill("a-long-enough-password");
    await page.getByLabel("Organization name").fill("Copy Labs");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription(/already exists/);
    await expect(page).toHaveURL(/\/signup$/);
  });
});

test("sign-in and sign-up pages pass axe, also in the dark theme", async ({ page }) => {
  await page.goto("/signin");
  await expect(page.getByRole("heading", { name: "Sign in to Forja" })).toBeVisible();
  await expectAccessible(page);
  await page.goto("/signup");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByLabel("Your name")).toHaveAccessibleDescription("Enter your name");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Dark theme" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expectAccessible(page);
});

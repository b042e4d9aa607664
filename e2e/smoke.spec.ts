import { expect, test } from "@playwright/test";
import { as } from "./support/fixtures";

test.describe("signed in as owner", () => {
  test.use(as("owner"));
  test("lands in the organization's catalog", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/acme-ai\/catalog/);
    await expect(page.getByRole("heading", { name: "Catalog" })).toBeVisible();
  });
});

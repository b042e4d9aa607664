import { type Browser, expect, test } from "@playwright/test";
import { signUpFresh } from "./support/accounts";
import { as, expectAccessible } from "./support/fixtures";

/**
 * Issue 8: the operator suspends an organization from its tenant page; its owner's launch is refused with the
 * operator's reason; after reactivation the same launch goes through. A fresh organization, so nobody else's
 * journeys are refused meanwhile.
 */
async function operatorPage(browser: Browser) {
  const context = await browser.newContext(as("operator"));
  return { page: await context.newPage(), close: () => context.close() };
}

test("a suspended organization cannot launch until the operator reactivates it", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = await signUpFresh(page, "suspended");
  const reason = `Unpaid invoice ${Date.now().toString(36)}`;
  const op = await operatorPage(browser);
  try {
    await op.page.goto(`/admin/tenants/${owner.orgSlug}`);
    const suspendForm = op.page.getByRole("form", { name: "Suspend the organization" });
    await suspendForm.getByLabel("Reason (shown to the organization's members)").fill(reason);
    await suspendForm.getByLabel("Notice for running instances (minutes)").fill("0");
    await suspendForm.getByRole("button", { name: "Suspend organization" }).click();
    await expect(op.page.getByRole("status").filter({ hasText: "Organization suspended." })).toContainText(
      "No running instance got the notice.",
    );
    await expectAccessible(op.page);

    const launchUrl = `/${owner.orgSlug}/instances/new?${new URLSearchParams({
      instanceType: "l4.1x",
      region: "eu-es-mad1",
      pricing: "on_demand",
    })}`;
    await page.goto(launchUrl);
    await page.getByLabel("Name", { exact: true }).fill("while-suspended");
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "suspended by the platform operator" }),
    ).toContainText(reason);
    await expect(page).toHaveURL(/\/instances\/new/);

    await op.page.reload();
    await op.page
      .getByRole("form", { name: "Reactivate the organization" })
      .getByRole("button", { name: "Reactivate organization" })
      .click();
    await expect(op.page.getByRole("status").filter({ hasText: "Organization reactivated" })).toBeVisible();

    await page.goto(launchUrl);
    await page.getByLabel("Name", { exact: true }).fill("after-reactivation");
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    await expect(page).toHaveURL(/\/instances\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  } finally {
    await op.close();
  }
});

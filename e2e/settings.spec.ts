import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signUpFresh } from "./support/accounts";
import { AUTH_DIR } from "./support/env";
import { as, expectAccessible } from "./support/fixtures";

test.describe("a new organization's owner", () => {
  test("renames the organization and restricts data residency", async ({ page }) => {
    const account = await signUpFresh(page, "settings");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();

    const name = page.getByLabel("Organization name");
    await expect(name).toHaveValue(account.orgName);
    await name.fill("x");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(name).toHaveAccessibleDescription(/at least 2 characters/);
    await name.fill("Renamed Research");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(
      page.getByRole("region", { name: "Organization", exact: true }).getByRole("status"),
    ).toHaveText("Saved.");
    await expect(page.getByRole("combobox", { name: "Switch organization" })).toContainText(
      "Renamed Research",
    );
    await expect(page).toHaveURL(new RegExp(`/${account.orgSlug}/settings$`));

    const residency = page.getByRole("group", { name: "Allowed jurisdictions" });
    await expect(residency.getByRole("checkbox")).not.toHaveCount(0);
    await residency.getByRole("checkbox", { name: "EU" }).check();
    await page.getByRole("button", { name: "Save data residency" }).click();
    await expect(page.getByRole("region", { name: "Data residency" }).getByRole("status")).toHaveText(
      "Saved.",
    );
    await page.reload();
    await expect(page.getByRole("checkbox", { name: "EU" })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "US" })).not.toBeChecked();
  });

  test("creates, refuses a duplicate slug, and edits projects", async ({ page }) => {
    await signUpFresh(page, "projects");
    await page.goto(`${new URL(page.url()).pathname.replace(/\/catalog$/, "")}/settings/projects`);
    await expect(page.getByRole("rowheader", { name: "Default" })).toBeVisible();

    const form = page.getByRole("region", { name: "New project" });
    await form.getByLabel("Project name").fill("Vision Research");
    await form.getByLabel("Environment").selectOption({ label: "Staging" });
    await form.getByRole("button", { name: "Create project" }).click();
    await expect(form.getByRole("status")).toHaveText("Project Vision Research created.");
    const row = page.getByRole("row", { name: /Vision Research/ });
    await expect(row).toContainText("vision-research");
    await expect(row).toContainText("Staging");

    await form.getByLabel("Project name").fill("Another one");
    await form.getByLabel("Slug (optional)").fill("vision-research");
    await form.getByRole("button", { name: "Create project" }).click();
    await expect(form.getByLabel("Slug (optional)")).toHaveAccessibleDescription(/already exists/);

    await page.getByRole("button", { name: "Edit Vision Research" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Vision Research" });
    await dialog.getByLabel("Project name").fill("Vision Production");
    await dialog.getByLabel("Environment").selectOption({ label: "Production" });
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(dialog).toBeHidden();
    const edited = page.getByRole("row", { name: /Vision Production/ });
    await expect(edited).toContainText("Production");
    await expect(edited).toContainText("vision-research");
    await expectAccessible(page);
  });
});

test.describe("as the owner of acme-ai", () => {
  test.use(as("owner"));

  test("another organization's settings are a 404", async ({ page }) => {
    const res = await page.goto("/globex/settings");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });

  test("the last owner cannot leave", async ({ page }) => {
    await page.goto("/acme-ai/settings");
    await page.getByRole("button", { name: "Leave organization" }).click();
    const dialog = page.getByRole("dialog", { name: "Leave Acme AI?" });
    await dialog.getByRole("button", { name: "Leave", exact: true }).click();
    await expect(dialog.getByRole("alert")).toHaveText(
      "You are the last owner. Make someone else an owner before you leave.",
    );
    await page.reload();
    await expect(page.getByLabel("Organization name")).toHaveValue("Acme AI");
  });

  test("the general settings page passes axe", async ({ page }) => {
    await page.goto("/acme-ai/settings");
    await expect(page.getByLabel("Organization name")).toBeVisible();
    await expectAccessible(page);
  });

  test("a viewer's session posting the owner's form is refused and nothing changes", async ({
    page,
    context,
  }) => {
    await page.goto("/acme-ai/settings");
    // Nothing of the owner's still in flight: a late response refreshing the owner's session cookie would undo
    // the swap below (seen on a loaded CI box: the rename then ran as the owner).
    await page.waitForLoadState("networkidle");
    // Swap in the viewer's session cookie: the form now posts the server action as the viewer would.
    const viewer = JSON.parse(fs.readFileSync(path.join(AUTH_DIR, "viewer.json"), "utf8")) as {
      cookies: Parameters<typeof context.addCookies>[0];
    };
    await context.addCookies(viewer.cookies.filter((c) => c.name.includes("session-token")));
    await page.getByLabel("Organization name").fill("Taken over by a viewer");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(
      page.getByRole("region", { name: "Organization", exact: true }).getByRole("alert"),
    ).toHaveText("You do not have permission to do this.");
    await page.reload();
    await expect(page.getByText("Only admins and owners can change them.", { exact: false })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: "Acme AI" })).toBeVisible();
  });
});

test.describe("as a viewer of acme-ai", () => {
  test.use(as("viewer"));

  test("settings and projects are read-only, without admin controls", async ({ page }) => {
    await page.goto("/acme-ai/settings");
    await expect(page.getByText("Only admins and owners can change them.", { exact: false })).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Organization name" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Save data residency" })).toHaveCount(0);
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await page.getByRole("link", { name: "Projects" }).click();
    await expect(page.getByRole("rowheader", { name: "Research" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Create project" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Edit/ })).toHaveCount(0);
  });
});

import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { type E2EState, STATE_FILE } from "./support/env";
import { as, expectAccessible, waitForMail } from "./support/fixtures";

test.describe("platform operator", () => {
  test.use(as("operator"));

  test("lands on the admin overview and moves through every admin page", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
    await expect(page.getByRole("term").filter({ hasText: "Organizations" })).toBeVisible();
    await expectAccessible(page);

    const nav = page.getByRole("navigation", { name: "Administration" });
    for (const [link, heading] of [
      ["Tenants", "Tenants"],
      ["Fleet", "Fleet"],
      ["Outbox", "Outbox"],
      ["Audit log", "Audit log"],
      ["Overview", "Overview"],
    ] as const) {
      await nav.getByRole("link", { name: link, exact: true }).click();
      await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
      await expect(nav.getByRole("link", { name: link, exact: true })).toHaveAttribute(
        "aria-current",
        "page",
      );
    }
  });

  test("finds tenants and keeps the search in the URL", async ({ page }) => {
    await page.goto("/admin/tenants");
    const table = page.getByRole("table", { name: "Organizations" });
    await expect(table.getByRole("rowheader", { name: /Acme AI/ })).toBeVisible();
    await expect(table.getByRole("rowheader", { name: /Globex/ })).toBeVisible();
    await expect(table.getByRole("row", { name: /Acme AI/ })).toContainText("owner@acme.test");
    await expectAccessible(page);

    await page.getByRole("searchbox", { name: "Search by name" }).fill("glob");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/admin\/tenants\?q=glob$/);
    await expect(table.getByRole("rowheader", { name: /Globex/ })).toBeVisible();
    await expect(table.getByRole("rowheader", { name: /Acme AI/ })).toHaveCount(0);

    await page.reload();
    await expect(page.getByRole("searchbox", { name: "Search by name" })).toHaveValue("glob");
    await page.getByRole("searchbox", { name: "Search by name" }).fill("no such tenant");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("No organization matches “no such tenant”.")).toBeVisible();
  });

  test("sees the fleet by jurisdiction", async ({ page }) => {
    await page.goto("/admin/fleet");
    await expect(page.getByRole("heading", { name: "Fleet", level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Jurisdiction EU", level: 2 })).toBeVisible();
    await expect(page.getByRole("table").first()).toBeVisible();
    await expectAccessible(page);
  });

  test("reads a delivered email in the outbox, filtered by status, with the HTML sandboxed", async ({
    page,
  }) => {
    const subject = `Outbox check ${randomUUID().slice(0, 8)}`;
    const to = `reader-${randomUUID().slice(0, 8)}@example.test`;
    const state = JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as E2EState;
    const client = new pg.Client({ connectionString: state.databaseUrl });
    await client.connect();
    try {
      // What enqueueEmail writes; the running worker delivers it over the test SMTP server.
      await client.query(
        "insert into outbox (to_address, subject, text_body, html_body, status) values ($1, $2, $3, $4, 'pending')",
        [
          to,
          subject,
          "Plain words for the operator",
          `<p id="p">Static HTML</p><script>document.getElementById("p").textContent = "script ran"</script>`,
        ],
      );
      await waitForMail(to, new RegExp(subject));
      await expect
        .poll(
          async () =>
            (await client.query("select status from outbox where subject = $1", [subject])).rows[0]?.status,
        )
        .toBe("sent");
    } finally {
      await client.end();
    }

    await page.goto("/admin/outbox");
    await page
      .getByRole("navigation", { name: "Filter by status" })
      .getByRole("link", { name: /^Sent/ })
      .click();
    await expect(page).toHaveURL(/\/admin\/outbox\?status=sent$/);
    const row = page.getByRole("row", { name: new RegExp(subject) });
    await expect(row).toContainText("Sent");
    await expect(row).toContainText(to);
    await expectAccessible(page);

    await page
      .getByRole("navigation", { name: "Filter by status" })
      .getByRole("link", { name: /^Failed/ })
      .click();
    await expect(page).toHaveURL(/status=failed$/);
    await expect(page.getByRole("row", { name: new RegExp(subject) })).toHaveCount(0);

    await page.goto("/admin/outbox?status=sent");
    await page.getByRole("link", { name: subject }).click();
    await expect(page.getByRole("heading", { name: subject, level: 1 })).toBeVisible();
    await expect(page.getByText("Plain words for the operator")).toBeVisible();
    // axe cannot run inside a script-less sandboxed frame, so the page is checked before the preview opens.
    await expectAccessible(page);
    await page.getByRole("button", { name: "Show rendered HTML" }).click();
    const frame = page.frameLocator(`iframe[title="HTML part of “${subject}”"]`);
    // Had the email's inline script run, the text would read "script ran": the frame is sandboxed.
    await expect(frame.locator("#p")).toHaveText("Static HTML");
    await page.getByText("HTML source").click();
    await expect(page.getByText('<p id="p">Static HTML</p>', { exact: false })).toBeVisible();
  });

  test("filters the platform audit log by organization and action, in the URL", async ({ page }) => {
    await page.goto("/admin/audit");
    await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
    await page.getByLabel("Organization (slug)").fill("acme-ai");
    await page.getByLabel("Action").selectOption("organization.created");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/org=acme-ai/);
    await expect(page).toHaveURL(/action=organization\.created/);
    const rows = page.getByRole("table", { name: /Audit log entries/ }).getByRole("row");
    await expect(rows).toHaveCount(2); // header + Acme's creation
    await expect(rows.nth(1)).toContainText("Acme AI");
    await expect(rows.nth(1)).toContainText("organization.created");
    await expect(rows.nth(1).locator("time")).toHaveAttribute("title", /\d{4}/);
    await expectAccessible(page);

    await page.reload();
    await expect(page.getByLabel("Organization (slug)")).toHaveValue("acme-ai");
    await expect(page.getByLabel("Action")).toHaveValue("organization.created");
  });
});

test.describe("tenant owner", () => {
  test.use(as("owner"));

  test("gets the 404 page at /admin", async ({ page }) => {
    const res = await page.goto("/admin");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await page.goto("/admin/outbox");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });

  test("reads the organization's own audit log", async ({ page }) => {
    await page.goto("/acme-ai/audit");
    await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
    await expect(page.getByRole("table", { name: /Audit log entries/ })).toContainText(
      "organization.created",
    );
    await expectAccessible(page);
  });
});

test.describe("tenant member", () => {
  test.use(as("member"));

  test("is told the audit log is for admins", async ({ page }) => {
    await page.goto("/acme-ai/audit");
    await expect(page.getByRole("status")).toHaveText(/Only admins and owners/);
    await expect(page.getByRole("table")).toHaveCount(0);
  });
});

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("is sent to sign in from /admin", async ({ page }) => {
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/signin/);
  });
});

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { signUpFresh } from "./support/accounts";
import { type E2EState, STATE_FILE } from "./support/env";
import { as, expectAccessible, waitForMail } from "./support/fixtures";

/** Spend and instances made through the libraries in a child process (see support/costs-seed.ts). */
function seed<T>(...args: string[]): T {
  const state = JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as E2EState;
  const res = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "e2e/support/costs-seed.ts", ...args],
    { env: { ...process.env, DATABASE_URL: state.databaseUrl }, encoding: "utf8" },
  );
  if (res.status !== 0) throw new Error(`costs seed failed:\n${res.stderr}`);
  return JSON.parse(res.stdout.trim().split("\n").at(-1) ?? "{}") as T;
}

const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}`;

async function newPage(browser: Browser, role: Parameters<typeof as>[0]) {
  const context = await browser.newContext(as(role));
  return { page: await context.newPage(), close: () => context.close() };
}

/** The worker evaluates budgets and auto-shutdown every 30 s: reload until the page shows the outcome. */
async function reloadUntil(page: Page, check: () => Promise<void>, timeout = 120_000) {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout, intervals: [2_000, 5_000] });
}

test.describe("budgets as the owner of acme-ai", () => {
  test.use(as("owner"));

  test("the budget form refuses bad input at the field and writes nothing", async ({ page }) => {
    const name = unique("Never saved");
    await page.goto("/acme-ai/budgets/new");
    await page.getByLabel("Monthly amount (USD)").fill("-5");
    await page.getByLabel("Extra email addresses").fill("finance@acme.test, not-an-email");
    await page.getByLabel("Threshold 2: percent").fill("0");
    await page.getByRole("button", { name: "Create budget" }).click();
    await expect(page.getByLabel("Name", { exact: true })).toHaveAccessibleDescription("Enter a name");
    await expect(page.getByLabel("Monthly amount (USD)")).toHaveAccessibleDescription(
      /Enter an amount above zero/,
    );
    await expect(page.getByLabel("Extra email addresses")).toHaveAccessibleDescription(/not-an-email/);
    await expect(page.getByLabel("Threshold 2: percent")).toHaveAccessibleDescription("At least 1 %");
    await expect(page.getByText("Check the highlighted fields.")).toBeVisible();

    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Monthly amount (USD)").fill("200000000");
    await page.getByLabel("Extra email addresses").fill("finance@acme.test");
    await page.getByLabel("Threshold 2: percent").fill("80");
    await page.getByRole("button", { name: "Create budget" }).click();
    await expect(page.getByLabel("Monthly amount (USD)")).toHaveAccessibleDescription(
      /At most \$100,000,000/,
    );
    await expect(page).toHaveURL(/\/budgets\/new$/);
    await page.goto("/acme-ai/budgets");
    await expect(page.getByRole("link", { name })).toHaveCount(0);
  });

  test("set a budget, drive spend past 80 %: the banner shows and the email arrives", async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    const name = unique("E2E cap");
    const finance = `finance-${Date.now().toString(36)}@acme.test`;
    await page.goto("/acme-ai/budgets");
    await page.getByRole("link", { name: "New budget" }).click();
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Monthly amount (USD)").fill("100000");
    await page.getByLabel("Extra email addresses").fill(finance);
    // The defaults the issue asks for, editable.
    await expect(page.getByLabel("Threshold 1: percent")).toHaveValue("50");
    await expect(page.getByLabel("Threshold 2: percent")).toHaveValue("80");
    await expect(page.getByLabel("Threshold 3: percent")).toHaveValue("100");
    await expect(page.getByLabel("Threshold 4: measure")).toHaveValue("forecast");
    await page.getByRole("button", { name: "Create budget" }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByText("On track")).toBeVisible();
    const budgetUrl = page.url();

    // Four hours of a 4×A100 container this month, metered like the worker does.
    const { actualUsd } = seed<{ actualUsd: number }>("spend", "acme-ai", "a100-80gb.4x", "eu-es-mad1", "4");
    expect(actualUsd).toBeGreaterThan(0);
    // A budget the spend is 85 % of: past 80 %, short of 100 % for the next hour at this burn.
    const amount = (Math.round((actualUsd / 0.85) * 100) / 100).toFixed(2);
    await page.goto(`${budgetUrl}/edit`);
    await page.getByLabel("Monthly amount (USD)").fill(amount);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page).toHaveURL(budgetUrl);

    const banner = page.getByRole("region", { name: /A budget has crossed a threshold/ });
    await reloadUntil(page, async () => {
      await expect(banner.getByRole("link", { name })).toBeVisible({ timeout: 1_000 });
    });
    // The worker evaluates budgets every 30 s: the alert is recorded, then the outbox delivers its email.
    await reloadUntil(page, async () => {
      await expect(page.getByRole("rowheader", { name: "80% of the budget spent" })).toBeVisible({
        timeout: 1_000,
      });
    });
    const mail = await waitForMail(finance, /Budget '.*' at 80%/);
    expect(mail.subject).toContain(name);
    expect(mail.text).toContain("/acme-ai/usage");
    await page.goto("/acme-ai/usage");
    await expect(banner).toBeVisible();
    await expectAccessible(page);
    await page.goto("/acme-ai/budgets");
    await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("Threshold crossed");
    await expectAccessible(page);

    await page.goto("/acme-ai/notifications");
    const notice = page.getByRole("listitem").filter({ hasText: `Budget '${name}' at 80%` });
    await expect(notice).toContainText("Unread");
    await expectAccessible(page);
    await notice.getByRole("button", { name: /Mark as read/ }).click();
    await expect(notice).not.toContainText("Unread");

    // Another organization's owner gets the 404 page for this budget, not its numbers.
    const other = await newPage(browser, "other");
    try {
      await other.page.goto(new URL(budgetUrl).pathname);
      await expect(other.page.getByRole("heading", { name: "Page not found" })).toBeVisible();
      await expect(other.page.getByText(name)).toHaveCount(0);
    } finally {
      await other.close();
    }

    // Clean up so the banner does not follow the other journeys around acme-ai.
    await page.goto(budgetUrl);
    await page.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: `Delete the budget ${name}?` });
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await dialog.getByRole("button", { name: "Delete budget" }).click();
    await expect(page).toHaveURL(/\/acme-ai\/budgets$/);
    await expect(page.getByRole("link", { name })).toHaveCount(0);
  });

  test("the cost explorer keeps range and grouping in the URL and exports the ledger as CSV", async ({
    page,
    request,
  }) => {
    seed("spend", "acme-ai", "a100-80gb.4x", "eu-es-mad1", "2");
    await page.goto("/acme-ai/usage");
    // Scoped to the main landmark: while the page streams, React keeps a hidden copy of the content outside it.
    const main = page.getByRole("main");
    await expect(main.getByText("Forecast to month end")).toBeVisible();
    await expect(main.getByText("How the forecast is made")).toBeVisible();
    await page.getByLabel("Group by").selectOption("gpu_model");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/group=gpu_model/);
    await expect(page.getByRole("heading", { name: "Daily cost by GPU model" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Cost per GPU model in the range" })).toContainText("A100");
    const top = page.getByRole("region", { name: "Top instances by cost" });
    await expect(top.getByRole("link", { name: /^costs-e2e-/ }).first()).toHaveAttribute(
      "href",
      /\/acme-ai\/instances\/[0-9a-f-]{36}$/,
    );
    await expect(page.getByRole("region", { name: /Energy and carbon/ })).toContainText("Estimate");
    await expect(main.getByText("kWh = measured GPU power × time × region PUE")).toBeVisible();
    await expectAccessible(page);

    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(
      /^forja-usage-acme-ai-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const csv = fs.readFileSync((await download.path()) as string, "utf8").split("\r\n");
    expect(csv[0]).toBe(
      "id,entry,correction_of,kind,period_start,period_end,seconds,project,instance_id,instance_name," +
        "reservation_id,instance_type,gpu_model,region,pricing_model,quantity,unit,unit_price,amount,currency",
    );
    expect(csv.some((l) => l.includes("a100-80gb.4x"))).toBe(true);

    const bad = await request.get("/api/v1/orgs/acme-ai/usage/export?from=2030-02-01&to=2030-01-01");
    expect(bad.status()).toBe(422);
    expect(bad.headers()["content-type"]).toContain("application/problem+json");
    expect((await bad.json()).errors.to).toEqual(["The end must be after the start"]);
    const other = await request.get("/api/v1/orgs/globex/usage/export?from=2030-01-01&to=2030-02-01");
    expect(other.status()).toBe(404);

    await page.goto("/acme-ai/usage?from=2030-02-31&to=2030-01-01");
    await expect(page.getByLabel("From")).toHaveAccessibleDescription("Enter a date like 2026-01-31");
  });
});

test.describe("auto-shutdown", () => {
  test.use(as("owner"));

  test("a member cannot exceed the organization's idle limit at launch", async ({ page, browser }) => {
    await page.goto("/acme-ai/settings/auto-shutdown");
    const form = page.locator("form").filter({ hasText: "Save policy" });
    await form.getByLabel("Project", { exact: true }).selectOption({ label: "All projects" });
    await form.getByLabel("GPU model", { exact: true }).selectOption({ label: "All GPU models" });
    await form.getByLabel("Idle time at most (minutes)").fill("60");
    await form.getByLabel("Stop after idle for (minutes)").fill("90");
    await page.getByRole("button", { name: "Save policy" }).click();
    // The library's rule, at the field: a default above the limit is refused and nothing is saved.
    await expect(form.getByLabel("Stop after idle for (minutes)")).toHaveAccessibleDescription(
      /The default cannot be above the limit/,
    );
    await form.getByLabel("Stop after idle for (minutes)").fill("");
    await page.getByRole("button", { name: "Save policy" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Policy saved." })).toBeVisible();
    await expect(page.getByRole("row", { name: /All projects · All GPU models/ })).toContainText(
      "Idle at most: 60 min",
    );
    await expectAccessible(page);

    const member = await newPage(browser, "member");
    try {
      await member.page.goto("/acme-ai/settings/auto-shutdown");
      await expect(member.page.getByRole("button", { name: "Save policy" })).toHaveCount(0);
      await member.page.goto("/acme-ai/instances/new?instanceType=l4.1x&region=eu-es-mad1&pricing=on_demand");
      await member.page.getByLabel("Name", { exact: true }).fill(`idle-limit-${Date.now().toString(36)}`);
      await member.page.getByLabel("Idle below GPU utilization (%)").fill("5");
      await member.page.getByLabel("For at least (minutes)").fill("90");
      await member.page.getByRole("button", { name: "Launch", exact: true }).click();
      await expect(member.page.getByLabel("For at least (minutes)")).toHaveAccessibleDescription(
        /at most 60 idle minutes/,
      );
      await expect(member.page).toHaveURL(/\/instances\/new/);
    } finally {
      await member.close();
    }
  });

  test("an idle notebook is warned, then stopped with the reason on its timeline", async ({ page }) => {
    test.setTimeout(240_000);
    // Staging only: a one-minute warning so the journey takes a couple of minutes, not ten.
    await page.goto("/acme-ai/settings/auto-shutdown");
    await page.getByLabel("Project", { exact: true }).selectOption({ label: "Staging" });
    await page.getByLabel("GPU model", { exact: true }).selectOption({ label: "All GPU models" });
    await page.getByLabel("Warn this many minutes before stopping").fill("1");
    await page.getByLabel("Snooze at most (minutes at a time)").fill("30");
    await page.getByRole("button", { name: "Save policy" }).click();
    await expect(page.getByRole("row", { name: /Staging · All GPU models/ })).toContainText(
      "Warning 1 min before",
    );

    const { instanceId } = seed<{ instanceId: string }>("idle-notebook", "acme-ai", "staging");
    await page.goto(`/acme-ai/instances/${instanceId}`);
    const warning = page.getByRole("region", { name: "Automatic shutdown pending" });
    await reloadUntil(page, async () => {
      await expect(warning).toBeVisible({ timeout: 1_000 });
    });
    await expect(warning).toContainText("idle for 5 min under 5% GPU utilization");
    // Snoozing past the policy is refused at the field (and postpones nothing).
    await warning.getByLabel("Postpone by (minutes)").fill("999");
    await warning.getByRole("button", { name: "Postpone shutdown" }).click();
    await expect(warning.getByLabel("Postpone by (minutes)")).toHaveAccessibleDescription(
      /at most 30 minutes at a time/,
    );
    await expectAccessible(page);

    const timeline = page.getByRole("region", { name: "Status timeline" });
    await reloadUntil(
      page,
      async () => {
        await expect(timeline).toContainText("auto-shutdown: idle for 5 min under 5 % GPU", {
          timeout: 1_000,
        });
      },
      180_000,
    );
    await expect(page.getByRole("status", { name: /^State: (Stopping|Stopped)$/ })).toBeVisible();
    await expect(warning).toHaveCount(0);
  });
});

test.describe("reservations and a new organization", () => {
  test("a new organization sees the empty state; buying a reservation shows the price and needs confirmation", async ({
    page,
  }) => {
    const account = await signUpFresh(page, "reserve");
    await page.goto(`/${account.orgSlug}/usage`);
    await expect(page.getByRole("heading", { name: "No usage yet" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Browse the catalog" })).toBeVisible();
    await expectAccessible(page);
    await page.goto(`/${account.orgSlug}/budgets`);
    await expect(page.getByRole("heading", { name: "No budgets yet" })).toBeVisible();
    await page.goto(`/${account.orgSlug}/notifications`);
    await expect(page.getByText("No notifications yet.")).toBeVisible();

    await page.goto(`/${account.orgSlug}/usage/reservations`);
    await expect(page.getByText("Your organization has no reservations.")).toBeVisible();
    await page.getByRole("button", { name: "Show price" }).click();
    await expect(page.getByLabel("GPU model")).toHaveAccessibleDescription("Choose a GPU model");

    await page.getByLabel("GPU model").selectOption({ label: "L4" });
    await page.getByLabel("Region").selectOption({ value: "eu-es-mad1" });
    await page.getByLabel("Number of GPUs").fill("2");
    await page.getByLabel("Term").selectOption({ label: "Reserved, 1 month" });
    await page.getByRole("button", { name: "Show price" }).click();
    const quote = page.getByRole("region", { name: "Price of this reservation" });
    await expect(quote).toContainText("2 L4 GPUs in eu-es-mad1, Reserved, 1 month");
    await expect(quote).toContainText(/\$[\d,]+\.\d\d per GPU-hour/);
    const total = (await quote.locator("p.text-2xl").textContent()) ?? "";
    expect(total).toMatch(/^\$[\d,]+\.\d\d$/);

    await quote.getByRole("button", { name: "Purchase…" }).click();
    const dialog = page.getByRole("dialog", { name: "Buy this reservation?" });
    await expect(dialog).toContainText(total);
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.reload();
    await expect(page.getByText("Your organization has no reservations.")).toBeVisible();

    await page.getByLabel("GPU model").selectOption({ label: "L4" });
    await page.getByLabel("Region").selectOption({ value: "eu-es-mad1" });
    await page.getByLabel("Number of GPUs").fill("2");
    await page.getByRole("button", { name: "Show price" }).click();
    await page.getByRole("button", { name: "Purchase…" }).click();
    await page
      .getByRole("dialog")
      .getByRole("button", { name: `Buy for ${total}` })
      .click();
    await expect(page.getByText("Reservation bought.")).toBeVisible();
    await expect(page.getByRole("rowheader", { name: "2 × L4 in eu-es-mad1" })).toBeVisible();
  });

  test("members see no purchase or budget forms and a posted purchase is refused", async ({ browser }) => {
    const member = await newPage(browser, "member");
    try {
      await member.page.goto("/acme-ai/budgets");
      await expect(member.page.getByRole("link", { name: "New budget" })).toHaveCount(0);
      await member.page.goto("/acme-ai/budgets/new");
      await expect(
        member.page.getByText("Only admins and owners can create or change budgets."),
      ).toBeVisible();
      await expect(member.page.getByRole("button", { name: "Create budget" })).toHaveCount(0);
      await member.page.goto("/acme-ai/usage/reservations");
      await expect(
        member.page.getByText("Only admins and owners can buy reservations.", { exact: false }),
      ).toBeVisible();
      await expect(member.page.getByRole("button", { name: "Show price" })).toHaveCount(0);
      const before = await member.page.request.get("/api/v1/orgs/acme-ai/usage/reservations");
      const count = ((await before.json()) as { items: unknown[] }).items.length;
      const res = await member.page.request.post("/api/v1/orgs/acme-ai/usage/reservations", {
        data: { gpuModelId: "l4", regionCode: "eu-es-mad1", gpuCount: 1, term: "reserved_1m" },
      });
      expect(res.status()).toBe(403);
      expect(res.headers()["content-type"]).toContain("application/problem+json");
      const after = await member.page.request.get("/api/v1/orgs/acme-ai/usage/reservations");
      expect(((await after.json()) as { items: unknown[] }).items).toHaveLength(count);
    } finally {
      await member.close();
    }
  });
});

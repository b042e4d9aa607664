import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { type E2EState, STATE_FILE } from "./support/env";
import { as, expectAccessible } from "./support/fixtures";

async function withDb<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const state = JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as E2EState;
  const client = new pg.Client({ connectionString: state.databaseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Offerings on sale now for a region and GPU model, counted straight from the database. */
async function offeringsInDb(region: string, gpu: string): Promise<number> {
  return withDb(async (c) => {
    const r = await c.query<{ n: number }>(
      `select count(distinct p.instance_type_id)::int as n from prices p
       join instance_types it on it.id = p.instance_type_id
       where p.region_code = $1 and it.gpu_model_id = $2 and p.pricing_model = 'on_demand'
         and p.effective_from <= now() and (p.effective_to is null or p.effective_to > now())`,
      [region, gpu],
    );
    return r.rows[0]?.n ?? 0;
  });
}

/** Body rows of the catalog table (the header row has column headers, not a row header). */
const offerings = (page: Page) =>
  page
    .getByRole("table", { name: /^Offerings, priced/ })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader") });

test.describe("catalog as the owner of acme-ai", () => {
  test.use(as("owner"));

  test("filters by an EU region and a GPU model, kept in the URL", async ({ page }) => {
    await page.goto("/acme-ai/catalog");
    await expect(page.getByRole("heading", { level: 1, name: "GPU catalog" })).toBeVisible();
    const regions = page.getByRole("navigation", { name: "Regions" });
    await regions.getByRole("link", { name: "Frankfurt" }).click();
    await expect(page).toHaveURL(/[?&]region=eu-de-fra1/);
    await page.getByLabel("GPU model").selectOption({ label: "H100" });
    await expect(page).toHaveURL(/[?&]gpu=h100/);

    const expected = await offeringsInDb("eu-de-fra1", "h100");
    expect(expected).toBeGreaterThan(0);
    await expect(offerings(page)).toHaveCount(expected);
    for (const row of await offerings(page).all()) {
      await expect(row.getByRole("rowheader")).toContainText("H100");
      await expect(row).toContainText("Frankfurt");
      await expect(row).toContainText("eu-de-fra1 · EU");
      await expect(row.getByRole("cell").filter({ hasText: /^\$\d+\.\d{2}\/h/ })).toHaveCount(1);
      await expect(row).toContainText(/\d+ now|queues/);
      await expect(row).toContainText(/starts now|about [\d.]+ (s|min|h)|unknown/);
    }
    await expect(page.getByText(`of ${expected} offerings`)).toBeVisible();
    const launch = offerings(page)
      .first()
      .getByRole("link", { name: /^Launch / });
    await expect(launch).toHaveAttribute(
      "href",
      /^\/acme-ai\/instances\/new\?instanceType=h100\.[\w.-]+&region=eu-de-fra1&pricing=on_demand$/,
    );

    await page.reload();
    await expect(page).toHaveURL(/region=eu-de-fra1/);
    await expect(page.getByLabel("GPU model")).toHaveValue("h100");
    await expect(regions.getByRole("link", { name: "Frankfurt" })).toHaveAttribute("aria-current", "true");
    await expect(offerings(page)).toHaveCount(expected);
    await expectAccessible(page);

    await page.goBack();
    await expect(page).not.toHaveURL(/gpu=h100/);
    await expect(page.getByLabel("GPU model")).toHaveValue("");
  });

  test("a whole jurisdiction lists only its regions", async ({ page }) => {
    await page.goto("/acme-ai/catalog?pageSize=100");
    await page.getByRole("link", { name: "All EU regions" }).click();
    await expect(page).toHaveURL(/jurisdiction=EU/);
    await expect(offerings(page).first()).toBeVisible();
    for (const text of await offerings(page).allInnerTexts())
      expect(text).toMatch(/eu-[a-z]{2}-[a-z0-9]+ · EU/);
  });

  test("a filter with no match shows the empty state with a way out", async ({ page }) => {
    await page.goto("/acme-ai/catalog?region=uk-lon1");
    await page.getByLabel("Max price (USD/h)").fill("0.01");
    await expect(page).toHaveURL(/maxPrice=0\.01/);
    await expect(page.getByRole("heading", { name: "No offerings match these filters" })).toBeVisible();
    await expect(offerings(page)).toHaveCount(0);
    await expectAccessible(page);
    await page.getByRole("link", { name: /Remove “Max price/ }).click();
    await expect(page).not.toHaveURL(/maxPrice/);
    await expect(offerings(page).first()).toBeVisible();
  });

  test("invalid values in a shared link are ignored, and the page says so", async ({ page }) => {
    await page.goto("/acme-ai/catalog?minMemoryGib=lots&gpu=h100");
    await expect(page.getByRole("status").filter({ hasText: "ignored: minimum GPU memory" })).toBeVisible();
    await expect(offerings(page).first().getByRole("rowheader")).toContainText("H100");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("the filter form still works as a GET form", async ({ page }) => {
      await page.goto("/acme-ai/catalog");
      await page.getByLabel("GPU count").selectOption({ label: "MIG slice (part of a GPU)" });
      await page.getByRole("button", { name: "Apply filters" }).click();
      await expect(page).toHaveURL(/gpuCount=mig/);
      await expect(offerings(page).first()).toContainText("MIG");
    });
  });
});

test.describe("catalog for an organization restricted to the EU", () => {
  test.use(as("other"));
  test.beforeAll(async () => {
    await withDb((c) =>
      c.query(`update organizations set allowed_jurisdictions = '{EU}' where slug = 'globex'`),
    );
  });
  test.afterAll(async () => {
    await withDb((c) =>
      c.query(`update organizations set allowed_jurisdictions = '{}' where slug = 'globex'`),
    );
  });

  test("shows a US offering disabled, with the reason", async ({ page }) => {
    await page.goto("/globex/catalog?region=us-east-1");
    const row = offerings(page).first();
    await expect(row).toBeVisible();
    await expect(row.getByRole("button", { name: "Launch" })).toBeDisabled();
    await expect(row.getByRole("button", { name: "Launch" })).toHaveAccessibleDescription(
      "Outside your organization's data residency (EU only)",
    );
    await expect(row.getByRole("link", { name: /^Launch / })).toHaveCount(0);
    await expectAccessible(page);

    await page.goto("/globex/catalog?region=eu-es-mad1");
    await expect(
      offerings(page)
        .first()
        .getByRole("link", { name: /^Launch / }),
    ).toBeVisible();
  });
});

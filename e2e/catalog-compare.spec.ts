import { expect, type Page, test } from "@playwright/test";
import { as, expectAccessible } from "./support/fixtures";

const table = (page: Page) => page.getByRole("table", { name: /^Offerings, priced/ });
const rows = (page: Page) =>
  table(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader") });
const header = (page: Page, name: string | RegExp) => table(page).getByRole("columnheader", { name });
/** Cells after the row header: 0 compare, 1 size, 2 memory, 3 region, 4 price, 5 $/GPU-h, 6 $/TFLOP-h, 7 availability. */
const column = async (page: Page, index: number): Promise<string[]> =>
  // One read in the page for the whole column (a locator call per row took 10 s for 50 rows under load).
  rows(page).evaluateAll(
    (trs, i) => trs.map((tr) => (tr.querySelectorAll("td")[i]?.textContent ?? "").trim()),
    index,
  );
const dollars = (text: string) => Number(text.replace(/[^0-9.]/g, ""));
const ascending = (xs: number[]) => xs.every((x, i) => i === 0 || (xs[i - 1] as number) <= x);

test.describe("catalog table", () => {
  test.use(as("member"));

  test("sorts by a column header, both ways, with aria-sort and the sort in the URL", async ({ page }) => {
    // Fifty dense rows: axe over them alone took 18 s on a loaded 2-core CI machine.
    test.slow();
    await page.goto("/acme-ai/catalog?gpu=h100&pageSize=50");
    await expect(header(page, /Price \(On-demand\)/)).toHaveAttribute("aria-sort", "ascending");
    await header(page, /\$\/GPU-h/)
      .getByRole("link")
      .click();
    await expect(page).toHaveURL(/sort=per_gpu_asc/);
    await expect(header(page, /\$\/GPU-h/)).toHaveAttribute("aria-sort", "ascending");
    await expect(header(page, /Price \(On-demand\)/)).not.toHaveAttribute("aria-sort");
    const up = (await column(page, 5)).map(dollars);
    expect(up.length).toBeGreaterThan(3);
    expect(ascending(up)).toBe(true);

    await header(page, /\$\/GPU-h/)
      .getByRole("link")
      .click();
    await expect(page).toHaveURL(/sort=per_gpu_desc/);
    await expect(header(page, /\$\/GPU-h/)).toHaveAttribute("aria-sort", "descending");
    const down = (await column(page, 5)).map(dollars);
    expect(ascending([...down].reverse())).toBe(true);
    // Filters survive a sort, and the sort survives a reload.
    await expect(page).toHaveURL(/gpu=h100/);
    await page.reload();
    await expect(header(page, /\$\/GPU-h/)).toHaveAttribute("aria-sort", "descending");
    await expect(page.getByLabel("Sort by")).toHaveValue("per_gpu_desc");
    await expectAccessible(page);
  });

  test("filters and sorts by availability together; every row is a MIG slice with the most free first", async ({
    page,
  }) => {
    await page.goto("/acme-ai/catalog");
    await page.getByLabel("GPU count").selectOption({ label: "MIG slice (part of a GPU)" });
    await expect(page).toHaveURL(/gpuCount=mig/);
    await header(page, "Availability").getByRole("link").click();
    await expect(page).toHaveURL(/sort=available_desc/);
    await expect(page).toHaveURL(/gpuCount=mig/);
    const sizes = await column(page, 1);
    expect(sizes.every((s) => s.startsWith("MIG "))).toBe(true);
    const free = (await column(page, 7)).map((s) => (s.includes("queues") ? 0 : dollars(s)));
    expect(ascending([...free].reverse())).toBe(true);
  });

  test("keyboard only: sort from a header, tick two offerings, open the comparison", async ({ page }) => {
    await page.goto("/acme-ai/catalog?gpu=a100-80gb");
    const memory = header(page, "Memory").getByRole("link");
    await memory.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/sort=memory_desc/);
    await expect(header(page, "Memory")).toHaveAttribute("aria-sort", "descending");

    const first = rows(page).nth(0).getByRole("checkbox");
    await first.focus();
    await page.keyboard.press("Space");
    await expect(first).toBeChecked();
    // Tab: the row's launch link, then the next row's checkbox.
    await page.keyboard.press("Tab");
    await expect(
      rows(page)
        .nth(0)
        .getByRole("link", { name: /^Launch / }),
    ).toBeFocused();
    await page.keyboard.press("Tab");
    const second = rows(page).nth(1).getByRole("checkbox");
    await expect(second).toBeFocused();
    await page.keyboard.press("Space");
    await expect(page.getByText("2 offerings picked (up to 4).")).toBeVisible();
    await page.getByRole("button", { name: "Compare selected" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/acme-ai\/catalog\/compare\?o=a100-80gb[^&]*&o=a100-80gb/);
    await expect(
      page.getByRole("table", { name: "Offerings side by side" }).getByRole("columnheader"),
    ).toHaveCount(2);
  });

  test.describe("on a narrow screen", () => {
    test.use({ viewport: { width: 390, height: 844 } });
    test("shows cards instead of the table", async ({ page }) => {
      await page.goto("/acme-ai/catalog?gpu=l4");
      await expect(page.getByRole("list", { name: "Offerings" }).getByRole("listitem").first()).toBeVisible();
      await expect(page.getByRole("table")).toHaveCount(0);
      const card = page.getByRole("list", { name: "Offerings" }).getByRole("listitem").first();
      await expect(card).toContainText(/below market median|above market median|at market median/);
      await expect(card.getByRole("checkbox", { name: /^Compare L4/ })).toBeVisible();
      await expectAccessible(page);
    });
  });
});

test.describe("compare offerings", () => {
  test.use(as("member"));

  test("compare four side by side: specs, every pricing model against the market, savings, a week of availability", async ({
    page,
  }) => {
    await page.goto("/acme-ai/catalog?gpu=h100&sort=per_gpu_asc&pageSize=50");
    const boxes = rows(page).getByRole("checkbox");
    expect(await boxes.count()).toBeGreaterThan(4);
    const picked: string[] = [];
    for (let i = 0; i < 4; i++) {
      await boxes.nth(i).check();
      picked.push((await boxes.nth(i).getAttribute("value")) as string);
    }
    await expect(page.getByText("4 offerings picked (up to 4).")).toBeVisible();
    // A fifth tick is undone, and the page says why.
    await boxes.nth(4).click();
    await expect(boxes.nth(4)).not.toBeChecked();
    await expect(page.getByText("You can compare up to 4 offerings; untick one first.")).toBeVisible();

    await page.getByRole("button", { name: "Compare selected" }).click();
    await expect(page).toHaveURL(
      new RegExp(
        `/acme-ai/catalog/compare\\?${picked.map((k) => `o=${k.replace(/[.]/g, "\\.").replace("@", "%40")}`).join("&")}$`,
      ),
    );
    await expect(page.getByRole("heading", { level: 1, name: "Compare offerings" })).toBeVisible();
    const compare = page.getByRole("table", { name: "Offerings side by side" });
    await expect(compare.getByRole("columnheader")).toHaveCount(4);
    const row = (name: string | RegExp) =>
      compare.getByRole("row").filter({ has: page.getByRole("rowheader", { name }) });
    await expect(row("GPU memory").getByRole("cell")).toHaveCount(4);
    for (const model of ["On-demand", "Spot", "Reserved 1 month", "Reserved 1 year"])
      await expect(row(model).getByRole("cell").first()).toContainText(/\$\d+\.\d{2}\/h/);
    // Our prices are derived below the public median (docs/catalog.md), so every on-demand cell says so.
    for (const c of await row("On-demand").getByRole("cell").all())
      await expect(c).toContainText(/% below market median \(\$4\.29\/GPU-h\)/);
    await expect(row("On-demand")).toContainText("(lowest per GPU)");
    // Reserved 1 year = 0.65 × on-demand: 35 % saved.
    for (const c of await row("Reserved 1 year saves").getByRole("cell").all())
      await expect(c).toContainText(/^3[45]% · \$[\d,]+\.\d{2}\/month at 730 h$/);
    await expect(
      row("Availability, last 7 days").getByRole("img", {
        name: /^Last 7 days: \d+–\d+ available, \d+ now$/,
      }),
    ).toHaveCount(4);
    await expect(row("Energy per hour (estimate)").getByRole("cell").first()).toContainText(/kWh\/h/);
    await expectAccessible(page);

    await compare
      .getByRole("link", { name: /^Remove / })
      .first()
      .click();
    await expect(compare.getByRole("columnheader")).toHaveCount(3);
    expect(new URL(page.url()).searchParams.getAll("o")).toEqual(picked.slice(1));
  });

  test("a hand-written link with five offerings keeps the first four and says so", async ({ page }) => {
    const five = [
      "l4.1x@eu-es-mad1",
      "l4.1x@eu-fi-hel1",
      "l4.2x@eu-fi-hel1",
      "h100.1x@eu-de-fra1",
      "h100.8x@eu-de-fra1",
    ];
    await page.goto(`/acme-ai/catalog/compare?${five.map((o) => `o=${o}`).join("&")}`);
    await expect(
      page
        .getByRole("status")
        .filter({ hasText: "1 more offering did not fit: compare at most 4 at a time." }),
    ).toBeVisible();
    await expect(
      page.getByRole("table", { name: "Offerings side by side" }).getByRole("columnheader"),
    ).toHaveCount(4);
  });
});

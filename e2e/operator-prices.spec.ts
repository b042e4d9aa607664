import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { type E2EState, STATE_FILE } from "./support/env";
import { as, expectAccessible } from "./support/fixtures";

/**
 * Issue 8, the operator's prices, capacity plan and MIG layouts: a price change is refused for a bad price
 * and a past time, scheduled for the future (the price in force stays), audited and cancelled; the capacity
 * page shows the plan with its method; an idle node's GPUs are re-partitioned, and a busy node's refused.
 */
const OPERATOR = "operator@forja.test";

async function operatorPage(browser: Browser) {
  const context = await browser.newContext(as("operator"));
  return { page: await context.newPage(), close: () => context.close() };
}

async function auditRows(op: Page, filters: Record<string, string>) {
  await op.goto(`/admin/audit?${new URLSearchParams(filters)}`);
  return (await op.getByRole("table").getByRole("row").allInnerTexts()).slice(1);
}

test("the operator schedules a price change against the market median, and cancels it", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const op = await operatorPage(browser);
  // A price of its own (to the cent and minute) so a retry or another run never meets this one's change.
  const cents = 10 + Math.floor(Math.random() * 80);
  const price = `0.${cents}00`;
  const minute = String(Math.floor(Math.random() * 60)).padStart(2, "0");
  try {
    await op.page.goto("/admin");
    await op.page
      .getByRole("navigation", { name: "Administration" })
      .getByRole("link", { name: "Prices" })
      .click();
    await expect(op.page.getByRole("heading", { name: "Prices", level: 1 })).toBeVisible();
    await op.page.getByLabel("Region shown").selectOption("eu-es-mad1");
    await op.page.getByLabel("GPU model shown").selectOption("l4");
    await op.page.getByRole("button", { name: "Apply filters" }).click();
    await expect(op.page).toHaveURL(/region=eu-es-mad1&gpu=l4/);
    const table = op.page.getByRole("table", { name: "Prices in force and scheduled changes" });
    const spotRow = table.getByRole("row", { name: /^l4\.1x.*Spot/ });
    // Each price's margin against the public on-demand median of its GPU, in the catalog's words, and the
    // market's 10th–90th percentile range for that GPU.
    await expect(spotRow.getByRole("cell").nth(4)).toContainText(
      /Margin: \d+% (below|above) market median \(\$0\.95\/GPU-h\)|Margin: at market median/,
    );
    await expect(spotRow.getByRole("cell").nth(4)).toContainText("market $0.38–$0.95 (median $0.95)");
    const before = (await spotRow.getByRole("cell").nth(2).textContent()) ?? "";

    const form = op.page.getByRole("form", { name: "Schedule a price change" });
    await form.getByLabel("Instance type").selectOption("l4.1x");
    await expect(form.getByLabel("Region", { exact: true })).toHaveValue("eu-es-mad1");
    await form.getByLabel("Pricing model").selectOption("spot");
    await form.getByLabel("New price (USD per hour)").fill("-1");
    await form.getByLabel("Takes effect at (UTC)").fill("2020-01-01T00:00");
    await form.getByRole("button", { name: "Schedule change" }).click();
    await expect(form.getByLabel("New price (USD per hour)")).toHaveAccessibleDescription(
      /Enter a price in USD per hour from 0.0001 to 100000/,
    );
    await form.getByLabel("New price (USD per hour)").fill(price);
    await form.getByRole("button", { name: "Schedule change" }).click();
    await expect(form.getByLabel("Takes effect at (UTC)")).toHaveAccessibleDescription(
      /Choose a time in the future: a price change never applies to the past/,
    );
    // Nothing was written on either refusal.
    await expect(spotRow).toContainText("None");

    await form.getByLabel("Takes effect at (UTC)").fill(`2031-03-04T05:${minute}`);
    await form.getByRole("button", { name: "Schedule change" }).click();
    await expect(form.getByRole("status")).toHaveText("Price change for l4.1x in eu-es-mad1 scheduled");
    // (ICU may put a narrow no-break space before "AM": \s matches it.)
    const scheduled = `\\$${price}/h from Mar 4, 2031, 5:${minute}\\sAM UTC`;
    await expect(spotRow).toContainText(new RegExp(scheduled));
    // Never applied early: the price in force is the one before.
    await expect(spotRow.getByRole("cell").nth(2)).toHaveText(before);
    await expectAccessible(op.page);

    const audited = await auditRows(op.page, { action: "price.scheduled", actor: OPERATOR });
    expect(audited.some((r) => r.includes("l4.1x") && r.includes("spot"))).toBe(true);

    await op.page.goto("/admin/prices?region=eu-es-mad1&gpu=l4");
    await spotRow
      .getByRole("button", { name: new RegExp(`^Cancel change of l4\\.1x Spot: ${scheduled}`) })
      .click();
    const dialog = op.page.getByRole("dialog", { name: "Cancel this price change?" });
    await expect(dialog).toContainText(new RegExp(`l4\\.1x in eu-es-mad1 will not change to ${scheduled}`));
    await dialog.getByRole("button", { name: "Cancel the change" }).click();
    await expect(dialog).toBeHidden();
    await expect(spotRow).not.toContainText(new RegExp(scheduled));
    await expect(spotRow.getByRole("cell").nth(2)).toHaveText(before);
    expect((await auditRows(op.page, { action: "price.cancelled", actor: OPERATOR })).length).toBeGreaterThan(
      0,
    );
  } finally {
    await op.close();
  }
});

test("the capacity page plans per region and GPU model, with its method", async ({ browser }) => {
  const op = await operatorPage(browser);
  try {
    await op.page.goto("/admin/capacity?region=eu-es-mad1&model=l4");
    await expect(op.page.getByRole("heading", { name: "Where to add GPUs next" })).toBeVisible();
    await expect(op.page.getByText(/least-squares line through those 30 peaks/)).toBeVisible();
    const plan = op.page.getByRole("table", { name: /Capacity, commitments and forecast/ });
    const row = plan.getByRole("row", { name: /^eu-es-mad1 L4 / });
    // The same capacity as the charts' table beside it (active nodes' GPUs).
    const charts = op.page.getByRole("table", { name: /capacity/i }).filter({ hasText: "Capacity now" });
    const capacityNow = await charts
      .getByRole("row", { name: /^Madrid L4 / })
      .getByRole("cell")
      .nth(1)
      .textContent();
    await expect(row.getByRole("cell").nth(1)).toHaveText(capacityNow ?? "");
    await expect(row.getByRole("cell").nth(5)).toHaveText(/^(No waits|[\d.]+ (s|min|h))$/);
    await expect(row.getByRole("cell").nth(7)).toHaveText(/Already full|Not expected|\(in \d+ days?\)/);
    await expectAccessible(op.page);
  } finally {
    await op.close();
  }
});

test("the operator changes the MIG layout of an idle node; a busy node is refused with the reason", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const op = await operatorPage(browser);
  // H200 in London: no H200 price there, so nothing any journey launches can land on this node.
  const nodeName = `e2e-mig-${randomUUID().slice(0, 6)}`;
  const state = JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as E2EState;
  const db = new pg.Client({ connectionString: state.databaseUrl });
  await db.connect();
  try {
    await op.page.goto("/admin/fleet/nodes/new");
    const add = op.page.getByRole("form", { name: "Add a node" });
    await add.getByLabel("Name").fill(nodeName);
    await add.getByLabel("Region").selectOption("uk-lon1");
    await add.getByLabel("GPU model").selectOption("h200");
    await add.getByLabel("GPUs", { exact: true }).fill("2");
    await add.getByRole("button", { name: "Add a node" }).click();
    await add.getByRole("link", { name: "Open the node's page" }).click();
    await expect(op.page.getByRole("heading", { level: 1 })).toHaveText(`Node ${nodeName}`);
    const gpus = op.page.getByRole("table", { name: `GPUs of ${nodeName}` });
    await expect(gpus.getByRole("row", { name: /GPU 1/ })).toContainText("Whole GPU");

    const layout = op.page.getByRole("form", { name: "MIG layout" });
    await layout.getByLabel("GPU 1 in MIG mode").check();
    await layout.getByRole("button", { name: "Change MIG layout" }).click();
    await expect(layout.getByRole("status")).toHaveText(
      "MIG layout changed: new placements use it from now on.",
    );
    await expect(gpus.getByRole("row", { name: /GPU 1/ })).toContainText("MIG (7 slices)");
    await expect(gpus.getByRole("row", { name: /GPU 0/ })).toContainText("Whole GPU");
    await expectAccessible(op.page);

    // Something holds GPU 0 now (an allocation written straight in: no H200 can be launched in London, by
    // design of this journey), so the layout may not change under it.
    const node = await db.query(
      "select n.id, g.id as gpu from nodes n join node_gpus g on g.node_id = n.id where n.name = $1 and g.gpu_index = 0",
      [nodeName],
    );
    const { id: nodeId, gpu } = node.rows[0] as { id: string; gpu: string };
    const held = await db.query(
      `insert into gpu_allocations (org_id, instance_id, node_id, node_gpu_id, slices)
       values (gen_random_uuid(), gen_random_uuid(), $1, $2, 7) returning id`,
      [nodeId, gpu],
    );
    await layout.getByLabel("GPU 0 in MIG mode").check();
    await layout.getByRole("button", { name: "Change MIG layout" }).click();
    await expect(layout.getByRole("alert")).toHaveText(
      "Instances still hold GPUs on this node: drain it and wait until it is idle to change its MIG layout.",
    );
    await op.page.reload();
    await expect(gpus.getByRole("row", { name: /GPU 0/ })).not.toContainText("MIG (7 slices)");
    await db.query("update gpu_allocations set released_at = now() where id = $1", [held.rows[0]?.id]);

    const changes = await auditRows(op.page, { action: "node.mig_layout_changed", actor: OPERATOR });
    expect(changes.filter((r) => r.includes(nodeName))).toHaveLength(1);
  } finally {
    await db.end();
    await op.close();
  }
});

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { type E2EState, STATE_FILE } from "./support/env";
import { as, expectAccessible } from "./support/fixtures";

/** A running 2-GPU L4 instance in Madrid with samples, made through the library (see support/charts-seed.ts). */
function seedRunningInstance(): string {
  const state = JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as E2EState;
  const res = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "e2e/support/charts-seed.ts"],
    { env: { ...process.env, DATABASE_URL: state.databaseUrl }, encoding: "utf8" },
  );
  if (res.status !== 0) throw new Error(`charts seed failed:\n${res.stderr}`);
  const last = res.stdout.trim().split("\n").at(-1) ?? "";
  return (JSON.parse(last) as { instanceId: string }).instanceId;
}

let instanceId = "";
test.beforeAll(() => {
  instanceId = seedRunningInstance();
});

const chart = (page: Page, title: string) => page.getByRole("region", { name: title, exact: true });

test.describe("instance charts", () => {
  test.use(as("owner"));

  test("show utilization with an accessible summary; range and per-GPU view live in the URL", async ({
    page,
  }) => {
    await page.goto(`/acme-ai/instances/${instanceId}`);
    const util = chart(page, "GPU utilization");
    await expect(util.getByRole("heading", { name: "GPU utilization", level: 3 })).toBeVisible();
    const table = util.getByRole("table", { name: /^GPU utilization, last 1 h/ });
    await expect(table.getByRole("rowheader", { name: "Average of 2 GPUs" })).toBeVisible();
    await expect(table.getByRole("row")).toHaveCount(2);
    // Exact values, formatted with their unit, not an empty placeholder.
    await expect(table.getByRole("row", { name: /Average of 2 GPUs/ })).toContainText(/\d+(\.\d)? %/);
    // The picture is drawn once its place scrolls into view (recharts is fetched then), as a person looks at it.
    await util.scrollIntoViewIfNeeded();
    await expect(util.getByRole("application", { name: "GPU utilization" })).toBeVisible();
    await expect(chart(page, "GPU memory used").getByRole("table")).toContainText("GiB");
    await expect(chart(page, "GPU power draw").getByRole("table")).toContainText(" W");
    await expectAccessible(page);

    await page.getByRole("group", { name: "Show" }).getByRole("link", { name: "Per GPU" }).click();
    await expect(page).toHaveURL(/[?&]gpus=each/);
    await expect(table.getByRole("rowheader", { name: "GPU 0" })).toBeVisible();
    await expect(table.getByRole("rowheader", { name: "GPU 1" })).toBeVisible();
    await expect(table.getByRole("row")).toHaveCount(4);

    await page.getByRole("group", { name: "Time range" }).getByRole("link", { name: "6 h" }).click();
    await expect(page).toHaveURL(/[?&]range=6h/);
    await expect(page).toHaveURL(/[?&]gpus=each/);
    await expect(util.getByRole("table", { name: /^GPU utilization, last 6 h/ })).toBeVisible();
    await expect(
      page.getByRole("group", { name: "Time range" }).getByRole("link", { name: "6 h" }),
    ).toHaveAttribute("aria-current", "true");

    await page.goBack();
    await expect(page).not.toHaveURL(/range=6h/);
    await expect(util.getByRole("table", { name: /^GPU utilization, last 1 h/ })).toBeVisible();
  });
});

test.describe("another organization", () => {
  test.use(as("other"));

  test("gets a 404 problem for the instance's metrics", async ({ page }) => {
    const res = await page.request.get(`/api/v1/orgs/acme-ai/instances/${instanceId}/metrics?metric=power`);
    expect(res.status()).toBe(404);
    expect(res.headers()["content-type"]).toContain("application/problem+json");
  });
});

test.describe("queue times", () => {
  test.use(as("member"));

  test("show wait p50/p95 for a region × GPU model and the current queue depth", async ({ page }) => {
    await page.goto("/acme-ai/catalog");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Queue times" }).click();
    await expect(page).toHaveURL(/\/acme-ai\/queues/);
    await expect(page.getByRole("heading", { name: "Queue times", level: 1 })).toBeVisible();
    await page.getByRole("combobox", { name: "Region" }).selectOption("eu-es-mad1");
    await page.getByRole("combobox", { name: "GPU model" }).selectOption("l4");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/region=eu-es-mad1/);
    await expect(page).toHaveURL(/model=l4/);

    await page.getByRole("group", { name: "Time range" }).getByRole("link", { name: "6 h" }).click();
    await expect(page).toHaveURL(/range=6h/);
    await expect(page).toHaveURL(/region=eu-es-mad1/);

    const waits = chart(page, "Wait for L4 in Madrid");
    const summary = waits.getByRole("table", { name: /last 6 h/ });
    // The seeded instance waited exactly 5 minutes in the queue.
    await expect(summary.getByRole("row", { name: /Median wait \(p50\)/ })).toContainText("5 min");
    await expect(summary.getByRole("row", { name: /95th percentile wait \(p95\)/ })).toContainText("5 min");

    const depth = page.getByRole("table", { name: /Instances waiting for a GPU right now/ });
    const row = depth.getByRole("row", { name: /Madrid/ });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("L4");
    // A region filtered out is not listed.
    await expect(depth.getByRole("rowheader", { name: "Frankfurt" })).toHaveCount(0);
    await expectAccessible(page);
  });
});

test.describe("fleet capacity", () => {
  test.describe("as the operator", () => {
    test.use(as("operator"));

    test("shows capacity vs. used per region and GPU model, filtered in the URL", async ({ page }) => {
      await page.goto("/admin/capacity");
      await expect(page.getByRole("heading", { name: "Fleet capacity", level: 1 })).toBeVisible();
      const table = page.getByRole("table", { name: /Capacity and use now/ });
      for (const region of ["Madrid", "Frankfurt", "Tokyo"]) {
        await expect(table.getByRole("rowheader", { name: region }).first()).toBeVisible();
      }
      await expectAccessible(page);

      await page.getByRole("combobox", { name: "Region" }).selectOption("eu-es-mad1");
      await page.getByRole("button", { name: "Apply filters" }).click();
      await expect(page).toHaveURL(/region=eu-es-mad1/);
      await expect(table.getByRole("rowheader", { name: "Frankfurt" })).toHaveCount(0);
      const l4 = chart(page, "L4 in Madrid");
      await expect(l4.getByRole("table").getByRole("rowheader", { name: "Capacity" })).toBeVisible();
      await expect(l4.getByRole("table").getByRole("rowheader", { name: "Used" })).toBeVisible();
    });
  });

  test.describe("as a tenant owner", () => {
    test.use(as("owner"));

    test("is not there (404)", async ({ page }) => {
      const res = await page.goto("/admin/capacity");
      expect(res?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Fleet capacity" })).toHaveCount(0);
    });
  });
});

import fs from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { signUpFresh } from "./support/accounts";
import { type E2EState, STATE_FILE } from "./support/env";
import { as, expectAccessible } from "./support/fixtures";

/** Direct reads and test set-up on the throwaway e2e database (global-setup refuses a non-local one). */
async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
  const { databaseUrl } = JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as E2EState;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const stateOf = (page: Page) => page.getByRole("status", { name: /^State: / });
// The worker ticks every few seconds and the simulated provider runs 30× fast; provisioning still takes a few
// ticks, and a first GPU sample needs one 10 s metrics pass.
const LIVE = { timeout: 90_000 };

/** Fill the launch form (reached with the offering in the URL) and submit; returns the new instance's id. */
async function launch(page: Page, name: string, instanceType: string, region: string): Promise<string> {
  await page.goto(
    `/acme-ai/instances/new?${new URLSearchParams({ instanceType, region, pricing: "on_demand" })}`,
  );
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Launch", exact: true }).click();
  await expect(page).toHaveURL(/\/acme-ai\/instances\/[0-9a-f-]{36}$/);
  return page.url().split("/").at(-1) as string;
}

/**
 * Until it runs. The simulated fleet fails about 3 % of provisioning attempts on purpose (like real fleets); a
 * failed attempt is launched again rather than letting the journey depend on that draw.
 */
async function launchUntilRunning(page: Page, name: string, instanceType: string, region: string) {
  for (let attempt = 1; ; attempt++) {
    const id = await launch(page, attempt === 1 ? name : `${name}-${attempt}`, instanceType, region);
    await expect(stateOf(page)).toHaveAccessibleName(/^State: (Running|Failed)$/, LIVE);
    const failed = (await stateOf(page).getAttribute("aria-label")) === "State: Failed";
    if (!failed || attempt === 3) return id;
  }
}

async function newPage(browser: Browser, role: Parameters<typeof as>[0]) {
  const context = await browser.newContext(as(role));
  return { page: await context.newPage(), close: () => context.close() };
}

test.describe("instances as a member", () => {
  test.use(as("member"));

  test("launch a notebook from the catalog, watch it queue and run, see its GPU chart, stop and terminate it", async ({
    page,
    browser,
  }) => {
    test.setTimeout(300_000);
    await page.goto("/acme-ai/catalog?region=eu-fi-hel1&gpu=l4&gpuCount=1");
    await page.getByRole("link", { name: /^Launch L4 × 1 in Helsinki/ }).click();
    await expect(page).toHaveURL(/\/acme-ai\/instances\/new\?.*instanceType=l4\.1x/);
    await expect(page.getByLabel("Region")).toHaveValue("eu-fi-hel1");
    await expect(page.getByLabel("Instance type")).toHaveValue("l4.1x");
    // Before submitting: price, quota left for L4 in Helsinki, expected wait.
    const preview = page.getByRole("region", { name: "Before you launch" });
    await expect(preview.getByText(/\$\d+\.\d{2}\/h/)).toBeVisible();
    await expect(preview).toContainText(/of 8 L4 GPUs in eu-fi-hel1/);
    await expect(preview.getByText(/Expected wait/)).toBeVisible();
    await expectAccessible(page);

    const name = unique("nb");
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    await expect(page).toHaveURL(/\/acme-ai\/instances\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    // It went through the queue (the timeline keeps it even if placement was instant).
    await expect(page.getByText("Requested → Queued")).toBeVisible();

    await expect(stateOf(page)).toHaveAccessibleName(/^State: (Running|Failed)$/, LIVE);
    if ((await stateOf(page).getAttribute("aria-label")) === "State: Failed") {
      // See launchUntilRunning: a simulated provisioning failure; the rest of the journey needs a running one.
      await launchUntilRunning(page, `${name}-again`, "l4.1x", "eu-fi-hel1");
    }
    await expect(page.getByText("Provisioning → Running")).toBeVisible();
    const connection = page.getByRole("region", { name: "Connection" });
    await expect(connection.getByRole("link", { name: /^https:\/\/nb-/ })).toBeVisible();
    await expect(connection.getByRole("button", { name: "Copy Token" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Cost so far (estimate)" })).toBeVisible();

    const util = page.getByRole("region", { name: "GPU utilization", exact: true });
    await expect(util.getByRole("row", { name: /GPU 0/ })).toContainText(/\d+(\.\d+)? %/, LIVE);
    await expectAccessible(page);

    // A viewer sees the instance but no lifecycle buttons.
    const viewer = await newPage(browser, "viewer");
    await viewer.page.goto(page.url());
    await expect(viewer.page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(stateOf(viewer.page)).toHaveAccessibleName("State: Running");
    await expect(viewer.page.getByRole("button", { name: "Stop" })).toHaveCount(0);
    await expect(viewer.page.getByRole("button", { name: "Terminate" })).toHaveCount(0);
    // Issue 12 item 3: connection details (notebook URL with its token, endpoint, ssh) are for members and up,
    // on the page and through the API alike.
    const instanceUrl = `/api/v1/orgs/acme-ai/instances/${page.url().split("/").at(-1)}`;
    const mine = await (await page.request.get(instanceUrl)).json();
    expect(mine.connection?.url).toMatch(/^https:\/\/nb-/);
    // No Connection section at all for a viewer (not an empty one saying the instance is not running).
    await expect(viewer.page.getByRole("region", { name: "Cost so far (estimate)" })).toBeVisible();
    await expect(viewer.page.getByRole("region", { name: "Connection" })).toHaveCount(0);
    await expect(viewer.page.getByRole("button", { name: "Copy Token" })).toHaveCount(0);
    await expect(viewer.page.getByText(mine.connection.url)).toHaveCount(0);
    const seen = await viewer.page.request.get(instanceUrl);
    expect(seen.status()).toBe(200);
    const body = await seen.json();
    expect(body.state).toBe("running");
    expect(body.connection).toBeNull();
    expect(JSON.stringify(body)).not.toContain(mine.connection.url);
    await viewer.close();

    // Another organization's member gets the 404 page for this instance, even under their own organization.
    const other = await newPage(browser, "other");
    const res = await other.page.goto(`/globex/instances/${page.url().split("/").at(-1)}`);
    expect(res?.status()).toBe(404);
    await expect(other.page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await other.close();

    // Stop asks first; Escape keeps it running.
    await page.getByRole("button", { name: "Stop" }).click();
    const stopDialog = page.getByRole("dialog", { name: /^Stop nb-/ });
    await expect(stopDialog).toBeVisible();
    await expect(stopDialog.getByRole("button", { name: "Keep it" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(stopDialog).toBeHidden();
    await expect(stateOf(page)).toHaveAccessibleName("State: Running");
    await page.getByRole("button", { name: "Stop" }).click();
    await stopDialog.getByRole("button", { name: "Stop instance" }).click();
    await expect(stopDialog).toBeHidden();
    await expect(stateOf(page)).toHaveAccessibleName(/^State: (Stopping|Stopped)$/);
    await expect(stateOf(page)).toHaveAccessibleName("State: Stopped", LIVE);
    await expect(page.getByRole("button", { name: "Start" })).toBeVisible();

    await page.getByRole("button", { name: "Terminate" }).click();
    const termDialog = page.getByRole("dialog", { name: /^Terminate nb-/ });
    await termDialog.getByRole("button", { name: "Terminate instance" }).click();
    await expect(stateOf(page)).toHaveAccessibleName("State: Terminated", LIVE);
    await expect(page.getByRole("button", { name: /Stop|Start|Terminate/ })).toHaveCount(0);
    const current = page.url().split("/").at(-1) as string;
    const [row] = await sql<{ state: string }>("select state from instances where id = $1", [current]);
    expect(row?.state).toBe("terminated");
  });

  test("a launch over quota shows the quota error and creates nothing", async ({ page }) => {
    const [org] = await sql<{ id: string }>("select id from organizations where slug = 'acme-ai'");
    await sql(
      `insert into quotas (org_id, gpu_model_id, region_code, max_gpus) values ($1, 'a10', 'eu-es-mad1', 0)
       on conflict (org_id, gpu_model_id, region_code) do update set max_gpus = 0`,
      [org?.id],
    );
    await page.goto("/acme-ai/instances/new?instanceType=a10.1x&region=eu-es-mad1&pricing=on_demand");
    await expect(page.getByRole("region", { name: "Before you launch" })).toContainText(
      "0 of 0 A10 GPUs in eu-es-mad1",
    );
    const name = unique("over");
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Quota exceeded" });
    await expect(alert).toContainText(
      "may hold 0 GPUs there, 0 are already queued or in use, and this needs 1 more",
    );
    await expect(alert).toContainText("ask an organization admin to request more quota");
    await expect(page).toHaveURL(/\/instances\/new/);
    expect(await sql("select id from instances where name = $1", [name])).toEqual([]);
  });

  test("invalid fields are reported at the field and nothing is created", async ({ page }) => {
    await page.goto("/acme-ai/instances/new?instanceType=l40s.1x&region=eu-de-fra1");
    await page.getByLabel("Name", { exact: true }).fill("Not A Name");
    await page
      .getByRole("group", { name: "Kind" })
      .getByRole("radio", { name: /^Container/ })
      .check();
    await page.getByLabel("Environment variables").fill("GOOD=1\nno-equals-sign");
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    const nameInput = page.getByLabel("Name", { exact: true });
    await expect(nameInput).toHaveAttribute("aria-invalid", "true");
    await expect(nameInput).toHaveAccessibleDescription(/Use lower-case letters, digits and hyphens/);
    await expect(page.getByLabel("Environment variables")).toHaveAccessibleDescription(
      /Line 2: write KEY=VALUE/,
    );
    await expect(page.getByRole("alert").filter({ hasText: "Some fields need attention" })).toBeVisible();
    expect(await sql("select id from instances where name = $1", ["Not A Name"])).toEqual([]);
  });

  test("a launch with no free capacity queues and shows position, ETA and alternatives", async ({ page }) => {
    test.setTimeout(120_000);
    // Take every H100 node in London out of service: nothing can be placed there until they return.
    await sql("update nodes set status = 'down' where region_code = 'uk-lon1' and gpu_model_id = 'h100'");
    try {
      const id = await launch(page, unique("wait"), "h100.1x", "uk-lon1");
      await expect(stateOf(page)).toHaveAccessibleName("State: Queued");
      const queue = page.getByRole("region", { name: "Waiting for capacity" });
      await expect(queue).toContainText(/#\d+ in the queue/);
      await expect(queue.getByText("Expected start")).toBeVisible();
      const alternatives = queue.getByRole("link", { name: /^Launch / });
      await expect(alternatives.first()).toBeVisible();
      await expect(queue.getByRole("listitem").first()).toContainText(/\$\d+\.\d{2}\/h/);
      await expectAccessible(page);

      await alternatives.first().click();
      await expect(page).toHaveURL(/\/acme-ai\/instances\/new\?instanceType=/);
      await expect(page.getByLabel("Instance type")).not.toHaveValue("");

      await page.goto(`/acme-ai/instances/${id}`);
      await page.getByRole("button", { name: "Cancel launch" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Cancel launch" }).click();
      await expect(stateOf(page)).toHaveAccessibleName("State: Cancelled");
    } finally {
      await sql("update nodes set status = 'active' where region_code = 'uk-lon1' and gpu_model_id = 'h100'");
    }
  });

  test("bulk stop asks first and reports each instance; filters stay in the URL", async ({
    page,
    browser,
  }) => {
    test.setTimeout(300_000);
    const prefix = unique("bulk");
    const a = await launchUntilRunning(page, `${prefix}-a`, "l40s.1x", "eu-de-fra1");
    const b = await launchUntilRunning(page, `${prefix}-b`, "l40s.1x", "eu-de-fra1");
    const names = await sql<{ id: string; name: string }>(
      "select id, name from instances where id = any($1)",
      [[a, b]],
    );
    const nameA = names.find((n) => n.id === a)?.name as string;
    const nameB = names.find((n) => n.id === b)?.name as string;

    await page.goto("/acme-ai/instances?state=running&region=eu-de-fra1");
    // Scoped to the filter form: while a page streams, React keeps a hidden copy of it outside the landmark.
    const filters = page.getByRole("form", { name: "Filter instances" });
    await expect(filters.getByLabel("State")).toHaveValue("running");
    await expect(filters.getByLabel("Region")).toHaveValue("eu-de-fra1");
    await expectAccessible(page);
    await page.getByRole("checkbox", { name: `Select ${nameA}` }).check();
    await page.getByRole("checkbox", { name: `Select ${nameB}` }).check();

    // Meanwhile someone else stops b, seen by a tab whose live refresh is behind (else b would simply drop
    // out of the selection): the bulk stop reports b and still stops a.
    const listApi = (url: URL) => url.pathname === "/api/v1/orgs/acme-ai/instances";
    await page.route(listApi, (route) => route.abort());
    const other = await newPage(browser, "admin");
    await other.page.goto(`/acme-ai/instances/${b}`);
    await other.page.getByRole("button", { name: "Stop" }).click();
    await other.page.getByRole("dialog").getByRole("button", { name: "Stop instance" }).click();
    await expect(stateOf(other.page)).toHaveAccessibleName(/^State: (Stopping|Stopped)$/);
    await other.close();

    await page.getByRole("button", { name: "Stop selected (2)" }).click();
    const dialog = page.getByRole("dialog", { name: "Stop 2 instances?" });
    await expect(dialog.getByRole("listitem")).toHaveCount(2);
    await expect(dialog).toContainText(nameA);
    await expect(dialog).toContainText(nameB);
    await dialog.getByRole("button", { name: "Stop 2 instances" }).click();
    const report = page.getByRole("status").filter({ hasText: "could not be stopped" });
    await expect(report).toContainText(`Stopping 1 instance: ${nameA}.`);
    await expect(report).toContainText(`1 instance could not be stopped:`);
    await expect(report.getByRole("listitem")).toContainText(nameB);
    await page.unroute(listApi);
    await expect
      .poll(
        async () =>
          (await sql<{ state: string }>("select state from instances where id = $1", [a]))[0]?.state,
        LIVE,
      )
      .toMatch(/stopping|stopped/);

    // The filters are in the URL: changing one updates it, a reload keeps them, and they can be cleared.
    await filters.getByLabel("State").selectOption("stopped");
    await expect(page).toHaveURL(/state=stopped/);
    await expect(page).toHaveURL(/region=eu-de-fra1/);
    await page.reload();
    await expect(filters.getByLabel("State")).toHaveValue("stopped");
    await expect(page.getByRole("row", { name: new RegExp(nameB) })).toContainText("Stopped", LIVE);
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/acme-ai\/instances$/);
  });
});

test("actions posted after the role was lowered to viewer are refused, and nothing changes", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // A person of their own, so lowering their role cannot disturb journeys running in parallel.
  const context = await browser.newContext();
  const page = await context.newPage();
  const person = await signUpFresh(page, "demoted");
  const setRole = (role: string) =>
    sql(
      `insert into memberships (org_id, user_id, role)
       select o.id, u.id, $2::org_role from organizations o, users u where o.slug = 'acme-ai' and u.email = $1
       on conflict (org_id, user_id) do update set role = excluded.role`,
      [person.email, role],
    );
  await setRole("member");
  const id = await launch(page, unique("demoted"), "l40s.1x", "eu-de-fra1");
  const action = page.getByRole("button", { name: /^(Stop|Terminate|Cancel launch)$/ }).first();
  await expect(action).toBeVisible();

  // The page stays as the member saw it (a stale tab): its live refresh would otherwise hide the buttons.
  await page.route("**/api/v1/orgs/acme-ai/instances/**", (route) => route.abort());
  await setRole("viewer");
  const label = await action.textContent();
  await action.click();
  const dialog = page.getByRole("dialog");
  await dialog
    .getByRole("button", { name: label === "Cancel launch" ? "Cancel launch" : /instance$/ })
    .click();
  await expect(dialog.getByRole("alert")).toHaveText("Your role cannot do this. Ask an organization admin.");
  const [row] = await sql<{ state: string }>("select state from instances where id = $1", [id]);
  expect(["stopping", "terminating", "cancelled"]).not.toContain(row?.state);
  const byPerson = await sql(
    `select 1 from instance_events e join users u on u.id = e.actor_user_id
     where e.instance_id = $1 and u.email = $2 and e.to_state <> 'requested' and e.to_state <> 'queued'`,
    [id, person.email],
  );
  expect(byPerson).toEqual([]);

  // The launch form posts too: opened as a member, submitted as a viewer, refused, and nothing is created.
  await setRole("member");
  await page.goto("/acme-ai/instances/new?instanceType=l40s.1x&region=eu-de-fra1");
  const name = unique("refused");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await setRole("viewer");
  await page.getByRole("button", { name: "Launch", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Your role cannot do this" })).toBeVisible();
  expect(await sql("select id from instances where name = $1", [name])).toEqual([]);
  await context.close();
});

test.describe("instances as a viewer", () => {
  test.use(as("viewer"));

  test("the list has no selection or New instance, and the launch page says why", async ({ page }) => {
    await page.goto("/acme-ai/instances");
    await expect(page.getByRole("heading", { level: 1, name: "Instances" })).toBeVisible();
    await expect(page.getByRole("link", { name: "New instance" })).toHaveCount(0);
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Stop selected/ })).toHaveCount(0);
    await page.goto("/acme-ai/instances/new");
    await expect(page.getByText("Viewers can look at instances but not launch them")).toBeVisible();
    await expect(page.getByRole("button", { name: "Launch", exact: true })).toHaveCount(0);
  });
});

test.describe("the instances API", () => {
  test.use(as("other"));

  test("is tenant-scoped and answers problems as problem+json", async ({ page }) => {
    const list = await page.request.get("/api/v1/orgs/acme-ai/instances");
    expect(list.status()).toBe(404);
    expect(list.headers()["content-type"]).toContain("application/problem+json");
    const own = await page.request.get("/api/v1/orgs/globex/instances?state=bogus");
    expect(own.status()).toBe(422);
    const body = await own.json();
    expect(body.errors.state).toBeDefined();
  });
});

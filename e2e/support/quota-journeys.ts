import { type Browser, expect, type Page } from "@playwright/test";
import { type FreshAccount, signUpFresh } from "./accounts";
import { as } from "./fixtures";

/** What the quota journeys (operator-quotas, quota-preemption) share: pages, launches, the operator's quota form. */
export type LaunchOptions = { autoRecover?: boolean; priority?: number };
export const stateOf = (page: Page) => page.getByRole("status", { name: /^State: / });
export const LIVE = { timeout: 90_000 };

export async function operatorPage(browser: Browser) {
  const context = await browser.newContext(as("operator"));
  return { page: await context.newPage(), close: () => context.close() };
}

export async function freshPage(browser: Browser, label: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  return { page, account: await signUpFresh(page, label), close: () => context.close() };
}

export function launchUrl(org: string, instanceType: string, region: string) {
  return `/${org}/instances/new?${new URLSearchParams({ instanceType, region, pricing: "on_demand" })}`;
}

/** Fill and submit the launch form; returns the new instance's id. */
export async function launch(
  page: Page,
  org: string,
  name: string,
  instanceType: string,
  region: string,
  opts: LaunchOptions = {},
) {
  await page.goto(launchUrl(org, instanceType, region));
  await page.getByLabel("Name", { exact: true }).fill(name);
  if (opts.autoRecover) await page.getByLabel("Recover after an interruption").check();
  if (opts.priority !== undefined)
    await page.getByLabel("Priority", { exact: true }).fill(String(opts.priority));
  await page.getByRole("button", { name: "Launch", exact: true }).click();
  await expect(page).toHaveURL(/\/instances\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  return page.url().split("/").at(-1) as string;
}

/** The simulated fleet fails a few provisioning attempts on purpose: launch again rather than depend on it. */
export async function launchUntilRunning(
  page: Page,
  org: string,
  name: string,
  instanceType: string,
  region: string,
  opts: LaunchOptions = {},
) {
  for (let attempt = 1; ; attempt++) {
    const id = await launch(page, org, `${name}-${attempt}`, instanceType, region, opts);
    await expect(stateOf(page)).toHaveAccessibleName(/^State: (Running|Failed)$/, LIVE);
    if ((await stateOf(page).getAttribute("aria-label")) !== "State: Failed" || attempt === 3) {
      return { id, name: `${name}-${attempt}` };
    }
  }
}

/** The operator sets an organization's levels for one GPU model × region on /admin/quotas. */
export async function setQuota(
  op: Page,
  org: FreshAccount,
  model: string,
  region: string,
  levels: { nominal: string; borrowing?: string },
) {
  await op.goto("/admin/quotas");
  const form = op.getByRole("form", { name: "Set an organization's quota" });
  await form.getByLabel("Organization").selectOption({ label: org.orgName });
  await form.getByLabel("GPU model").selectOption(model);
  await form.getByLabel("Region").selectOption(region);
  await form.getByLabel("Nominal GPUs").fill(levels.nominal);
  await form.getByLabel("Borrowing limit (GPUs)").fill(levels.borrowing ?? "0");
  await form.getByRole("button", { name: "Save quota" }).click();
  await expect(form.getByRole("status")).toHaveText("Quota saved.");
}

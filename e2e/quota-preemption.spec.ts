import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/fixtures";
import {
  freshPage,
  LIVE,
  launch,
  launchUntilRunning,
  launchUrl,
  operatorPage,
  setQuota,
  stateOf,
} from "./support/quota-journeys";

/**
 * Issue 8's optional per-organization policy, in a fresh organization on a GPU model × region no other journey
 * launches on (A100 80GB, uk-lon1): the owner lets higher-priority work preempt; with the quota full of
 * low-priority work, an urgent launch gives it the notice, and it stops (not requeued) when the notice ends.
 */
test("with the organization's preemption policy on, urgent work preempts its lower-priority work with notice", async ({
  browser,
}) => {
  // The notice is the spot notice (FORJA_SPOT_NOTICE_SECONDS: 45 s in the journeys).
  test.setTimeout(300_000);
  const op = await operatorPage(browser);
  const owner = await freshPage(browser, "preempt");
  const { page, account } = owner;
  try {
    await setQuota(op.page, account, "a100-80gb", "uk-lon1", { nominal: "1" });

    // Off by default: the owner turns it on from the organization's Quotas page.
    await page.goto(`/${account.orgSlug}/quotas`);
    const policy = page.getByRole("form", { name: "Priority preemption" });
    const box = policy.getByLabel(
      "Let higher-priority work preempt lower-priority work of this organization",
    );
    await expect(box).not.toBeChecked();
    await expect(box).toHaveAccessibleDescription(/do not go back to the queue/);
    await box.check();
    await policy.getByRole("button", { name: "Save policy" }).click();
    await expect(policy.getByRole("status")).toHaveText("Policy saved.");
    await page.reload();
    await expect(
      page.getByLabel("Let higher-priority work preempt lower-priority work of this organization"),
    ).toBeChecked();
    await expectAccessible(page);

    // A priority out of range is refused at its field, and nothing is launched.
    await page.goto(launchUrl(account.orgSlug, "a100-80gb.1x", "uk-lon1"));
    await page.getByLabel("Name", { exact: true }).fill("too-urgent");
    await page.getByLabel("Priority", { exact: true }).fill("500");
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    await expect(page.getByLabel("Priority", { exact: true })).toHaveAccessibleDescription(/At most 100/);
    await expect(page).toHaveURL(/\/instances\/new/);

    // The quota (1 GPU) is full of low-priority batch work.
    const batch = await launchUntilRunning(page, account.orgSlug, "batch", "a100-80gb.1x", "uk-lon1", {
      priority: -10,
    });
    await expect(stateOf(page)).toHaveAccessibleName("State: Running");

    // The urgent launch is admitted: the batch work gets the notice, naming what it made room for.
    const urgent = await launch(page, account.orgSlug, "urgent-eval", "a100-80gb.1x", "uk-lon1", {
      priority: 50,
    });
    await expect(stateOf(page)).toHaveAccessibleName(/^State: (Queued|Provisioning|Running)$/);
    await page.goto(`/${account.orgSlug}/instances/${batch.id}`);
    await expect(stateOf(page)).toHaveAccessibleName("State: Being preempted", LIVE);
    await expect(
      page.getByText(/Preempted by higher-priority work of your organization \(urgent-eval/).first(),
    ).toBeVisible();
    // When the notice ends it stops: back in the queue it would put the organization over its quota.
    await expect(stateOf(page)).toHaveAccessibleName("State: Preempted", { timeout: 120_000 });
    await page.waitForTimeout(3_000);
    await expect(stateOf(page)).toHaveAccessibleName("State: Preempted");

    // Work of the same priority is never preempted: a second urgent launch is refused for quota.
    await page.goto(launchUrl(account.orgSlug, "a100-80gb.1x", "uk-lon1"));
    await page.getByLabel("Name", { exact: true }).fill("urgent-two");
    await page.getByLabel("Priority", { exact: true }).fill("50");
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Quota exceeded" })).toContainText(
      "not enough of it runs here to make room",
    );

    await page.goto(`/${account.orgSlug}/instances/${urgent}`);
    await expect(stateOf(page)).toHaveAccessibleName("State: Running", LIVE);
    await expectAccessible(page);
  } finally {
    await owner.close();
    await op.close();
  }
});

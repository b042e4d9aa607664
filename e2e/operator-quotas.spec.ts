import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { signUpFresh } from "./support/accounts";
import { expectAccessible, waitForMail } from "./support/fixtures";
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
 * Issue 8's operator journeys, each in fresh organizations (so no other journey's quota or queue is touched),
 * each on a GPU model × region no other journey launches on:
 *  - a launch refused for quota → a request from the refusal → the operator's partial approval → the email →
 *    the same launch goes through (A10, eu-fi-hel1);
 *  - borrowing in a cohort and the reclaim when the lender needs its nominal back (B200, us-east-1);
 *  - adding a node and draining it while an instance runs there (H200, eu-de-fra1);
 *  - the audit log (filters in the URL, CSV export) shows each step with its actor.
 */
const OPERATOR = "operator@forja.test";

/** The platform audit log filtered in the URL: the rows' action and actor cells, newest first. */
async function auditRows(op: Page, filters: Record<string, string>) {
  await op.goto(`/admin/audit?${new URLSearchParams(filters)}`);
  const rows = op.getByRole("table").getByRole("row");
  return (await rows.allInnerTexts()).slice(1);
}

test("a quota refusal leads to a request, a partial approval by email, and the launch then goes through", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const owner = await signUpFresh(page, "quota");
  const op = await operatorPage(browser);
  try {
    // A blank nominal is refused at its field: it is not taken as 0.
    await op.page.goto("/admin/quotas");
    const blank = op.page.getByRole("form", { name: "Set an organization's quota" });
    await blank.getByLabel("Organization").selectOption({ label: owner.orgName });
    await blank.getByLabel("GPU model").selectOption("a10");
    await blank.getByLabel("Region").selectOption("eu-fi-hel1");
    await blank.getByRole("button", { name: "Save quota" }).click();
    await expect(blank.getByLabel("Nominal GPUs")).toHaveAccessibleDescription(
      /Enter a whole number of GPUs/,
    );
    await setQuota(op.page, owner, "a10", "eu-fi-hel1", { nominal: "0" });

    await page.goto(launchUrl(owner.orgSlug, "a10.1x", "eu-fi-hel1"));
    await page.getByLabel("Name", { exact: true }).fill("over-quota");
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    const refusal = page.getByRole("alert").filter({ hasText: "Quota exceeded" });
    await expect(refusal).toContainText("may hold 0 GPUs there");
    await refusal.getByRole("link", { name: "Request more quota" }).click();
    await expect(page).toHaveURL(new RegExp(`/${owner.orgSlug}/quotas\\?`));

    const request = page.getByRole("form", { name: "Request more quota" });
    await expect(request.getByLabel("GPU model")).toHaveValue("a10");
    await expect(request.getByLabel("Region")).toHaveValue("eu-fi-hel1");
    await expect(request.getByLabel("GPUs needed in total")).toHaveValue("1");
    await request.getByLabel("GPUs needed in total").fill("2");
    await request.getByLabel("Reason").fill("Fine-tuning runs for the December release");
    await request.getByRole("button", { name: "Send request" }).click();
    await expect(request.getByRole("status")).toContainText("Request sent.");
    await expect(page.getByRole("table").last()).toContainText("Open");
    await expectAccessible(page);

    await op.page.goto("/admin/quota-requests");
    const decide = op.page.getByRole("form", {
      name: `Decide the request of ${owner.orgName} for a10 in eu-fi-hel1`,
    });
    await decide.getByLabel("Approve").check();
    await decide.getByLabel("GPUs granted").fill("1");
    await decide.getByLabel("Message to the requester").fill("One now, more in January");
    await decide.getByRole("button", { name: "Send decision" }).click();
    // The outcome is announced above the queue: the decided request's form has left the open list.
    await expect(op.page.getByRole("status").filter({ hasText: "Partly approved" })).toHaveText(
      "Partly approved: the quota is now 1 GPUs.",
    );
    await expect(decide).toHaveCount(0);
    // Decided, the request leaves the open list for the decided table.
    await expect(
      op.page
        .getByRole("table", { name: "Decided requests" })
        .getByRole("row", { name: new RegExp(owner.orgName) }),
    ).toContainText(/Partly approved\s*1\s*One now, more in January/);
    await expectAccessible(op.page);

    // The requester's Quotas page lists it among the past requests, with the operator's message.
    await page.goto(`/${owner.orgSlug}/quotas`);
    await expect(
      page
        .getByRole("table", { name: "Quota requests" })
        .getByRole("row", { name: /2 A10 GPUs in eu-fi-hel1/ }),
    ).toContainText(/Partly approved\s*1\s*One now, more in January/);

    const mail = await waitForMail(owner.email, /Quota partly raised/);
    expect(mail.subject).toBe("Quota partly raised: A10 in eu-fi-hel1 is now 1 GPUs");
    expect(mail.text).toContain("One now, more in January");

    await page.goto(launchUrl(owner.orgSlug, "a10.1x", "eu-fi-hel1"));
    await page.getByLabel("Name", { exact: true }).fill("within-quota");
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    await expect(page).toHaveURL(/\/instances\/[0-9a-f-]{36}$/, { timeout: 30_000 });

    // The audit log shows every step with its actor, newest first.
    const rows = await auditRows(op.page, { org: owner.orgSlug });
    const steps = rows.map((r) => {
      const actor = r.includes(OPERATOR) ? "operator" : r.includes(owner.email) ? "owner" : "other";
      const action = r.match(/\b(instance|quota_request|quota)\.[a-z_]+/)?.[0];
      return `${action} by ${actor}`;
    });
    expect(steps.slice(0, 4)).toEqual([
      "instance.launched by owner",
      "quota_request.partial by operator",
      "quota_request.created by owner",
      "quota.updated by operator",
    ]);
    const byOperator = await auditRows(op.page, { org: owner.orgSlug, actor: OPERATOR });
    expect(byOperator).toHaveLength(2);
    await expectAccessible(op.page);
  } finally {
    await op.close();
  }
});

test("a cohort member borrows idle GPUs, and they are reclaimed with notice when the lender launches", async ({
  browser,
}) => {
  // The reclaim notice is the spot notice (FORJA_SPOT_NOTICE_SECONDS: 45 s in the journeys) before the requeue.
  test.setTimeout(330_000);
  const op = await operatorPage(browser);
  const lender = await freshPage(browser, "lender");
  const borrower = await freshPage(browser, "borrower");
  try {
    const cohort = `Cohort ${randomUUID().slice(0, 6)}`;
    await op.page.goto("/admin/quotas");
    const create = op.page.getByRole("form", { name: "Create cohort" });
    await create.getByLabel("Cohort name").fill(cohort);
    await create.getByRole("button", { name: "Create cohort" }).click();
    await expect(create.getByRole("status")).toHaveText(`Cohort ${cohort} created.`);
    for (const org of [lender.account, borrower.account]) {
      await op.page.goto("/admin/quotas");
      const member = op.page.getByRole("form", { name: "Add to cohort" });
      await member.getByLabel("Cohort").selectOption({ label: cohort });
      await member.getByLabel("Organization").selectOption({ label: org.orgName });
      await member.getByRole("button", { name: "Add to cohort" }).click();
      await expect(member.getByRole("status")).toHaveText("Cohort membership saved.");
    }
    await setQuota(op.page, lender.account, "b200", "us-east-1", { nominal: "1" });
    await setQuota(op.page, borrower.account, "b200", "us-east-1", { nominal: "0", borrowing: "1" });
    await expectAccessible(op.page);

    // The borrower's launch preview says which part is borrowed, and what that means.
    const b = borrower.page;
    await b.goto(launchUrl(borrower.account.orgSlug, "b200.1x", "us-east-1"));
    await expect(b.getByRole("region", { name: "Before you launch" })).toContainText(
      "0 GPUs of this launch are guaranteed and 1 borrowed from your cohort",
    );
    const borrowed = await launchUntilRunning(
      b,
      borrower.account.orgSlug,
      "borrowed",
      "b200.1x",
      "us-east-1",
      {
        autoRecover: true,
      },
    );
    await expect(b.getByText("Borrowed quota", { exact: true })).toBeVisible();

    // The lender needs its nominal back: the borrower gets the reclaim notice, then is requeued.
    await launch(lender.page, lender.account.orgSlug, "lender-needs-it", "b200.1x", "us-east-1");
    await b.goto(`/${borrower.account.orgSlug}/instances/${borrowed.id}`);
    await expect(stateOf(b)).toHaveAccessibleName("State: Being preempted", LIVE);
    await expect(b.getByText(/Borrowed capacity reclaimed/).first()).toBeVisible();
    await expect(stateOf(b)).toHaveAccessibleName("State: Queued", { timeout: 200_000 });
    await expect(b.getByText(/Over your organization's nominal quota/)).toBeVisible();
    await expectAccessible(b);
    // The reason offers a quota request, prefilled with what the queued instance needs (held + requested).
    await b.getByRole("link", { name: "Request more quota" }).click();
    await expect(b).toHaveURL(new RegExp(`/${borrower.account.orgSlug}/quotas\\?`));
    const ask = b.getByRole("form", { name: "Request more quota" });
    await expect(ask.getByLabel("GPU model")).toHaveValue("b200");
    await expect(ask.getByLabel("Region")).toHaveValue("us-east-1");
    await expect(ask.getByLabel("GPUs needed in total")).toHaveValue("1");

    // The operator takes the borrower out of the cohort, behind a confirmation.
    await op.page.goto("/admin/quotas");
    const members = op.page.getByRole("list", { name: `Members of ${cohort}` });
    await members.getByRole("button", { name: `Remove ${borrower.account.orgName} from ${cohort}` }).click();
    const dialog = op.page.getByRole("dialog", {
      name: `Remove ${borrower.account.orgName} from ${cohort}?`,
    });
    await dialog.getByRole("button", { name: "Remove", exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(members).not.toContainText(borrower.account.orgName);
    await expect(members).toContainText(lender.account.orgName);
  } finally {
    await Promise.all([op.close(), lender.close(), borrower.close()]);
  }
});

test("the operator adds a node and drains it; the instance on it gets the notice; the audit log has both", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const op = await operatorPage(browser);
  const owner = await freshPage(browser, "drain");
  const nodeName = `e2e-h200-${randomUUID().slice(0, 6)}`;
  try {
    await op.page.goto("/admin/fleet");
    await op.page.getByRole("link", { name: "All nodes" }).click();
    await op.page.getByRole("link", { name: "Add a node" }).click();
    const form = op.page.getByRole("form", { name: "Add a node" });
    await form.getByLabel("Name").fill("Not A Name");
    await form.getByLabel("Region").selectOption("eu-de-fra1");
    await form.getByLabel("GPU model").selectOption("h200");
    await form.getByLabel("GPUs", { exact: true }).fill("1");
    await form.getByRole("button", { name: "Add a node" }).click();
    await expect(form.getByLabel("Name")).toHaveAccessibleDescription(/lowercase letters, digits and dashes/);
    await form.getByLabel("Name").fill(nodeName);
    await form.getByRole("button", { name: "Add a node" }).click();
    await expect(form.getByRole("status")).toHaveText(`Node ${nodeName} added.`);
    await expectAccessible(op.page);
    await form.getByRole("link", { name: "Open the node's page" }).click();
    await expect(op.page.getByRole("heading", { level: 1 })).toHaveText(`Node ${nodeName}`);
    await expect(op.page.getByText("Nothing runs on this node.")).toBeVisible();
    const nodeUrl = op.page.url();

    // Best-fit packing puts a one-GPU launch on the one-GPU node (no other journey uses H200 here).
    const running = await launchUntilRunning(
      owner.page,
      owner.account.orgSlug,
      "on-node",
      "h200.1x",
      "eu-de-fra1",
    );
    await op.page.goto(nodeUrl);
    const onNode = op.page.getByRole("table", { name: `Instances on ${nodeName}` });
    await expect(onNode.getByRole("row", { name: new RegExp(running.name) })).toContainText("running");
    await expect(op.page.getByRole("table", { name: `GPUs of ${nodeName}` })).toContainText(running.name);
    await expectAccessible(op.page);

    await op.page.getByRole("button", { name: "Drain node" }).click();
    const dialog = op.page.getByRole("dialog", { name: `Drain ${nodeName}?` });
    await dialog.getByLabel("Reason (kept in the audit log)").fill("Firmware upgrade");
    await dialog.getByRole("button", { name: "Drain", exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(op.page.getByText(/^Draining — /)).toBeVisible();
    await expect(onNode.getByRole("row", { name: new RegExp(running.name) })).toContainText("preempting");

    await owner.page.goto(`/${owner.account.orgSlug}/instances/${running.id}`);
    await expect(stateOf(owner.page)).toHaveAccessibleName("State: Being preempted", LIVE);
    await expect(owner.page.getByText(new RegExp(`Node ${nodeName} is being drained`)).first()).toBeVisible();

    // The audit log, filtered by action and actor in the URL, shows the drain; the CSV export has the same rows.
    const drained = await auditRows(op.page, { action: "node.drained", actor: OPERATOR });
    expect(drained[0]).toContain(OPERATOR);
    expect(drained[0]).toContain("Firmware upgrade");
    await expectAccessible(op.page);
    const download = op.page.waitForEvent("download");
    await op.page.getByRole("link", { name: "Export as CSV" }).click();
    const csv = fs.readFileSync((await (await download).path()) as string, "utf8").split("\r\n");
    expect(csv[0]).toBe("id,at,organization,actor,actor_kind,action,target_type,target_id,data");
    expect(
      csv.some((l) => l.includes(",node.drained,") && l.includes(nodeName) && l.includes(OPERATOR)),
    ).toBe(true);
    expect(csv.filter(Boolean).every((l, i) => i === 0 || l.includes(",node.drained,"))).toBe(true);
    const added = await auditRows(op.page, { action: "node.added" });
    expect(added.some((r) => r.includes(nodeName) && r.includes(OPERATOR))).toBe(true);

    // The same name again is told at the name field.
    await op.page.goto("/admin/fleet/nodes/new");
    const again = op.page.getByRole("form", { name: "Add a node" });
    await again.getByLabel("Name").fill(nodeName);
    await again.getByLabel("Region").selectOption("eu-de-fra1");
    await again.getByLabel("GPU model").selectOption("h200");
    await again.getByLabel("GPUs", { exact: true }).fill("1");
    await again.getByRole("button", { name: "Add a node" }).click();
    await expect(again.getByLabel("Name")).toHaveAccessibleDescription(
      /A node with this name already exists/,
    );
  } finally {
    await Promise.all([op.close(), owner.close()]);
  }
});

test("a quota cut below use names the instance it reclaims, and it gets the notice; admins set project shares", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const op = await operatorPage(browser);
  const owner = await freshPage(browser, "cut");
  const { page } = owner;
  const org = owner.account;
  try {
    // The owner gives the Default project a share of the nominal quota (A100 40GB, eu-fi-hel1, built-in 8).
    await page.goto(`/${org.orgSlug}/quotas`);
    const share = page.getByRole("form", { name: "Save project share" });
    await share.getByLabel("Project").selectOption({ label: "Default" });
    await share.getByLabel("GPU model").selectOption("a100-40gb");
    await share.getByLabel("Region").selectOption("eu-fi-hel1");
    await share.getByLabel("Share (GPUs)").fill("9");
    await share.getByRole("button", { name: "Save project share" }).click();
    await expect(share.getByLabel("Share (GPUs)")).toHaveAccessibleDescription(
      /cannot exceed the organization's nominal quota/,
    );
    await share.getByLabel("Share (GPUs)").fill("2");
    await share.getByRole("button", { name: "Save project share" }).click();
    await expect(share.getByRole("status")).toHaveText("Project share saved.");
    await page.reload();
    await expect(
      page.getByRole("table", { name: "Quotas by GPU model and region" }).getByRole("row", {
        name: /A100 40GB eu-fi-hel1/,
      }),
    ).toContainText("Default: 2");
    await expectAccessible(page);

    const running = await launchUntilRunning(page, org.orgSlug, "cut", "a100-40gb.1x", "eu-fi-hel1");

    // Cutting the nominal to 0 asks for a confirmation that names the running instance …
    await op.page.goto("/admin/quotas");
    const form = op.page.getByRole("form", { name: "Set an organization's quota" });
    await form.getByLabel("Organization").selectOption({ label: org.orgName });
    await form.getByLabel("GPU model").selectOption("a100-40gb");
    await form.getByLabel("Region").selectOption("eu-fi-hel1");
    await form.getByLabel("Nominal GPUs").fill("0");
    await form.getByLabel("Borrowing limit (GPUs)").fill("0");
    await form.getByRole("button", { name: "Save quota" }).click();
    await expect(form).toContainText(
      `lowering it to 0 reclaims 1 running instance(s) with notice: ${running.name}`,
    );
    await expectAccessible(op.page);
    // … and, confirmed, that instance gets the reclaim notice.
    await form.getByLabel(/I understand: reclaim running instances/).check();
    await form.getByRole("button", { name: "Save quota" }).click();
    await expect(form.getByRole("status")).toHaveText("Quota saved.");

    await page.goto(`/${org.orgSlug}/instances/${running.id}`);
    await expect(stateOf(page)).toHaveAccessibleName("State: Being preempted", LIVE);
    await expect(page.getByText(/Quota lowered by the platform operator/).first()).toBeVisible();
  } finally {
    await Promise.all([op.close(), owner.close()]);
  }
});

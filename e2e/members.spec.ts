import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { MAILBOX_DIR } from "./support/env";
import { as, expectAccessible, waitForMail } from "./support/fixtures";
import { type ReceivedMail, readMailbox } from "./support/smtp";

const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}@invitee.test`;

function linkIn(text: string): string {
  const m = text.match(/https?:\/\/\S+\/invite\/[A-Za-z0-9_-]+/);
  if (!m) throw new Error(`no invitation link in the email:\n${text}`);
  return m[0];
}

async function invite(page: Page, email: string, role: "Admin" | "Member" | "Viewer") {
  await page.goto("/acme-ai/settings/members");
  const form = page.getByRole("region", { name: "Invite someone" });
  await form.getByLabel("Email address").fill(email);
  await form.getByLabel("Role", { exact: true }).selectOption({ label: role });
  await form.getByRole("button", { name: "Send invitation" }).click();
  await expect(form.getByRole("status")).toHaveText(`Invitation sent to ${email}.`);
  await expect(page.getByRole("row", { name: new RegExp(email) })).toBeVisible();
}

/** The invitee opens the emailed link in a browser of their own (not signed in). */
async function openAsStranger(browser: Browser, link: string) {
  // Explicitly empty: a context made inside a test otherwise inherits the signed-in owner's storage state.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto(link);
  return { context, page };
}

test.describe("as the owner of acme-ai", () => {
  test.use(as("owner"));

  test("invites a new person by email; they join with the role, then get a new role and are removed", async ({
    page,
    browser,
  }) => {
    const email = unique("newbie");
    await invite(page, email, "Member");

    const mail = await waitForMail(email, /invited you to Acme AI/);
    expect(mail.html).toContain("/invite/");
    const stranger = await openAsStranger(browser, linkIn(mail.text));
    const p = stranger.page;
    await expect(p.getByRole("heading", { name: "Join Acme AI" })).toBeVisible();
    await expect(p.getByText(`invited ${email} to join Acme AI as Member`)).toBeVisible();
    await expect(p.getByLabel("Email")).toHaveValue(email);
    await p.getByLabel("Your name").fill("Nora Newbie");
    await p.getByLabel("Password").fill("a-long-enough-password");
    await p.getByRole("button", { name: "Create account and join" }).click();
    await expect(p).toHaveURL(/\/acme-ai\/catalog$/, { timeout: 20_000 });
    await expect(p.getByRole("combobox", { name: "Switch organization" })).toHaveValue("acme-ai");
    // The link has done its job.
    await p.goto(linkIn(mail.text));
    await expect(p.getByRole("heading", { name: "You are a member of Acme AI" })).toBeVisible();
    await stranger.context.close();

    await page.reload();
    const role = page.getByRole("combobox", { name: "Role for Nora Newbie" });
    await expect(role).toHaveValue("member");
    await expect(page.getByRole("row", { name: new RegExp(email) })).toHaveCount(1);
    await role.selectOption({ label: "Viewer" });
    await page.getByRole("button", { name: "Save role for Nora Newbie" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Role changed." })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("combobox", { name: "Role for Nora Newbie" })).toHaveValue("viewer");

    // Removing asks first; Escape backs out without removing.
    await page.getByRole("button", { name: "Remove Nora Newbie" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove Nora Newbie?" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("button", { name: "Remove Nora Newbie" })).toBeFocused();
    await page.getByRole("button", { name: "Remove Nora Newbie" }).press("Enter");
    await dialog.getByRole("button", { name: "Remove member" }).click();
    await expect(page.getByRole("rowheader", { name: /Nora Newbie/ })).toHaveCount(0);
  });

  test("resends and revokes an invitation; the revoked link says so", async ({ page, browser }) => {
    const email = unique("revoked");
    await invite(page, email, "Viewer");
    const first = await waitForMail(email);
    await page.getByRole("button", { name: `Resend invitation to ${email}` }).click();
    await expect(page.getByText("Sent again with a new link.")).toBeVisible();
    let mails: ReceivedMail[] = [];
    await expect
      .poll(async () => {
        mails = (await readMailbox(MAILBOX_DIR)).filter((m) => m.to.includes(email));
        return mails.length;
      })
      .toBe(2);
    const second = mails.find((m) => linkIn(m.text) !== linkIn(first.text));
    if (!second) throw new Error("the resent email has the same link");

    await page.getByRole("button", { name: `Revoke invitation to ${email}` }).click();
    await page
      .getByRole("dialog", { name: "Revoke this invitation?" })
      .getByRole("button", { name: "Revoke invitation" })
      .click();
    await expect(page.getByRole("row", { name: new RegExp(email) })).toHaveCount(0);

    const stranger = await openAsStranger(browser, linkIn(second.text));
    await expect(stranger.page.getByRole("heading", { name: "This invitation was revoked" })).toBeVisible();
    // The first link was replaced by the resend, so it matches no invitation at all.
    await stranger.page.goto(linkIn(first.text));
    await expect(
      stranger.page.getByRole("heading", { name: "This invitation link is not valid" }),
    ).toBeVisible();
    await stranger.context.close();
  });

  test("inviting an existing member is refused at the field", async ({ page }) => {
    await page.goto("/acme-ai/settings/members");
    const form = page.getByRole("region", { name: "Invite someone" });
    await form.getByLabel("Email address").fill("member@acme.test");
    await form.getByRole("button", { name: "Send invitation" }).click();
    await expect(form.getByLabel("Email address")).toHaveAccessibleDescription(/already a member/);
  });

  test("another organization's members page is a 404", async ({ page }) => {
    const res = await page.goto("/globex/settings/members");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });

  test("the members page passes axe", async ({ page }) => {
    await page.goto("/acme-ai/settings/members");
    await expect(page.getByRole("heading", { name: /Members \(\d+\)/ })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Remove Max Member" }).click();
    await expect(page.getByRole("dialog", { name: "Remove Max Member?" })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe("as a viewer of acme-ai", () => {
  test.use(as("viewer"));

  test("sees members read-only, with no admin controls", async ({ page }) => {
    await page.goto("/acme-ai/settings/members");
    await expect(page.getByRole("rowheader", { name: /Ada Owner/ })).toBeVisible();
    await expect(page.getByText("Only admins and owners can invite people or change roles.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Send invitation" })).toHaveCount(0);
    await expect(page.getByRole("combobox", { name: /^Role for/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Remove/ })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Pending invitations" })).toHaveCount(0);
  });
});

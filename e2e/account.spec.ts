import { expect, test } from "@playwright/test";
import { signUpFresh } from "./support/accounts";
import { waitForMail } from "./support/fixtures";

// A submit signs in on the server (argon2 + next-auth); on a loaded CI machine that takes seconds.
const SUBMIT = { timeout: 30_000 };

/** The link in an email, made absolute as the email has it. */
function linkIn(text: string, path: string): string {
  const m = text.match(new RegExp(`https?://\\S+${path}[A-Za-z0-9_-]+`));
  if (!m) throw new Error(`no ${path} link in: ${text}`);
  return m[0];
}

// Issue 12 item 6: addresses are proven by an emailed link; a forgotten password is reset by email.
test("a new account confirms its address from the emailed link", async ({ page }) => {
  const account = await signUpFresh(page, "verify");
  const mail = await waitForMail(account.email, /Confirm your email address/);
  await page.goto(linkIn(mail.text, "/verify-email/"));
  await expect(page.getByRole("heading", { name: "Confirm your email address" })).toBeVisible();
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(page.getByRole("heading", { name: "Your email address is confirmed" })).toBeVisible(SUBMIT);
  // The link works once.
  await page.goto(linkIn(mail.text, "/verify-email/"));
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
});

test("a forgotten password is reset from the emailed link, which then signs in", async ({
  page,
  browser,
}) => {
  const account = await signUpFresh(page, "reset");
  const fresh = await browser.newContext({ locale: "en-US" });
  const p = await fresh.newPage();
  await p.goto("/signin");
  await p.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(p.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await p.getByLabel("Email").fill(account.email);
  await p.getByRole("button", { name: "Send the link" }).click();
  await expect(p.getByText(/If an account exists for that address/)).toBeVisible(SUBMIT);
  const mail = await waitForMail(account.email, /Reset your Forja password/);
  await p.goto(linkIn(mail.text, "/reset-password/"));
  await p.getByLabel("New password").fill("short");
  await p.getByRole("button", { name: "Save the new password" }).click();
  await expect(p.getByLabel("New password")).toHaveAccessibleDescription(/at least 12 characters/);
  await p.getByLabel("New password").fill("a-brand-new-long-password");
  await p.getByRole("button", { name: "Save the new password" }).click();
  await expect(p).toHaveURL(new RegExp(`/${account.orgSlug}/catalog$`), SUBMIT);
  await expect(p.getByText(account.email)).toBeVisible();
  await fresh.close();
});

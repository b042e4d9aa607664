import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { NO_SCRIPT_REVEAL_CSS, STREAM_FALLBACK_CLASS } from "../components/shell/stream-fallback";
import { USERS } from "./support/env";
import { as, waitForMail } from "./support/fixtures";

// A submit signs in on the server (argon2 + next-auth); on a loaded CI machine that takes seconds.
const SUBMIT = { timeout: 30_000 };

/**
 * Issue 12 item 1: with JavaScript not (yet) running, sign-in and sign-up submitted natively as GET, putting
 * the password in the URL. These journeys run with JavaScript disabled: the forms must POST to their server
 * actions, work, and no request URL may carry what was typed.
 */
test.use({ javaScriptEnabled: false });

function recordUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (r) => urls.push(r.url()));
  return urls;
}

test("sign-up without JavaScript creates the account and lands in the new organization, signed in", async ({
  page,
}) => {
  const urls = recordUrls(page);
  const id = randomUUID().slice(0, 8);
  const password = `no-js-password-${id}`;
  await page.goto("/signup");
  await page.getByLabel("Your name").fill(`No Script ${id}`);
  await page.getByLabel("Email").fill(`nojs-${id}@newco.test`);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Organization name").fill(`NoJS Labs ${id}`);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/nojs-labs-[a-z0-9-]+\/catalog$/, SUBMIT);
  await expect(page.getByRole("heading", { name: "Catalog" })).toBeVisible();
  await expect(page.getByText(`nojs-${id}@newco.test`)).toBeVisible();
  expect(urls.filter((u) => u.includes(password) || u.includes("password="))).toEqual([]);
});

test("sign-in without JavaScript: a wrong password is refused on the page, the right one signs in", async ({
  page,
}) => {
  const urls = recordUrls(page);
  await page.goto("/signin");
  await page.getByLabel("Email").fill(USERS.member.email);
  await page.getByLabel("Password").fill("not-the-password-1");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("Email or password is not right")).toBeVisible(SUBMIT);
  await page.getByLabel("Email").fill(USERS.member.email);
  await page.getByLabel("Password").fill(USERS.member.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/acme-ai\/catalog$/, SUBMIT);
  await expect(page.getByText(USERS.member.email)).toBeVisible();
  expect(urls.filter((u) => u.includes("password"))).toEqual([]);
});

test.describe("launch without JavaScript", () => {
  test.use(as("member"));
  test("the launch form posts and opens the new instance's page", async ({ page }) => {
    const name = `nojs-${Date.now().toString(36)}`;
    await page.goto("/acme-ai/instances/new?instanceType=l4.1x&region=eu-fi-hel1&pricing=on_demand");
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    await expect(page).toHaveURL(/\/acme-ai\/instances\/[0-9a-f-]{36}$/, SUBMIT);
    await expect(page.getByRole("heading", { name })).toBeVisible();
  });

  // The lists stream behind a loading state (loading.tsx); without a script React never swaps the streamed
  // content in, so each loading state reveals it when scripting is off (vercel/next.js#50150).
  test("the instances, usage and budgets lists show their content, not their loading state", async ({
    page,
  }) => {
    await page.goto("/acme-ai/instances");
    await expect(page.getByRole("heading", { level: 1, name: "Instances" })).toBeVisible();
    await expect(page.getByRole("form", { name: "Filter instances" })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Loading" })).toBeHidden();
    await page.goto("/acme-ai/usage");
    await expect(page.getByRole("heading", { level: 1, name: "Usage" })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Loading" })).toBeHidden();
    await page.goto("/acme-ai/budgets");
    await expect(page.getByRole("heading", { level: 1, name: "Budgets" })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Loading" })).toBeHidden();
    await page.goto("/acme-ai/catalog");
    await expect(page.getByRole("heading", { level: 1, name: "Catalog" })).toBeVisible();
    await expect(page.getByRole("table").first()).toBeVisible();
  });
});

// Whether a page streams behind its loading state depends on how fast it renders, so the journey above may not
// see the fallback at all; this shows the reveal itself on the markup React streams (fallback in place, the
// page in a hidden segment at the end of the body), with scripting off as in every test of this file.
test("with scripting off a streamed page is shown and its loading state hidden", async ({ page }) => {
  await page.setContent(
    `<main><div class="${STREAM_FALLBACK_CLASS}" role="status"><style>${NO_SCRIPT_REVEAL_CSS}</style>Loading…</div></main>` +
      '<div hidden id="S:0"><h1>Instances</h1></div>',
  );
  await expect(page.getByRole("heading", { name: "Instances" })).toBeVisible();
  await expect(page.getByRole("status")).toBeHidden();
});

test.describe("an invitation without JavaScript", () => {
  test.use(as("owner"));
  test("the owner invites, and the invitee creates an account from the link and joins, both with no script", async ({
    page,
    browser,
  }) => {
    const id = randomUUID().slice(0, 8);
    const email = `nojs-invitee-${id}@invitee.test`;
    const password = `no-js-invitee-${id}`;
    await page.goto("/acme-ai/settings/members");
    const form = page.getByRole("region", { name: "Invite someone" });
    await form.getByLabel("Email address").fill(email);
    await form.getByLabel("Role", { exact: true }).selectOption({ label: "Member" });
    await form.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByRole("row", { name: new RegExp(email) })).toBeVisible(SUBMIT);

    const mail = await waitForMail(email, /invited you to Acme AI/);
    const link = mail.text?.match(/https?:\/\/\S+\/invite\/[A-Za-z0-9_-]+/)?.[0];
    if (!link) throw new Error(`no invitation link in:\n${mail.text}`);
    const context = await browser.newContext({
      javaScriptEnabled: false,
      storageState: { cookies: [], origins: [] },
    });
    const p = await context.newPage();
    const urls = recordUrls(p);
    await p.goto(link);
    await p.getByLabel("Your name").fill(`Invitee ${id}`);
    await p.getByLabel("Password").fill(password);
    await p.getByRole("button", { name: "Create account and join" }).click();
    await expect(p).toHaveURL(/\/acme-ai\/catalog$/, SUBMIT);
    await expect(p.getByText(email)).toBeVisible();
    expect(urls.filter((u) => u.includes(password) || u.includes("password="))).toEqual([]);
    await context.close();
  });
});

import { randomUUID } from "node:crypto";
import { type Browser, chromium, expect, type Page, test } from "@playwright/test";
import { chromiumPath } from "../playwright.config";
import { USERS } from "./support/env";

// A submit signs in on the server (argon2 + next-auth); on a loaded CI machine that takes seconds.
const SUBMIT = { timeout: 30_000 };

/**
 * Issue 12 item 2: with NEXTAUTH_URL unset (the default `npm start`), next-auth made every URL on
 * http://localhost:3000, so a console opened as 127.0.0.1 or by another name sent people, after sign-up or
 * sign-in, to a host where they had no cookie. The e2e server runs without NEXTAUTH_URL, like `npm start`.
 */
const port = process.env.E2E_PORT;

async function signUpAt(page: Page, origin: string) {
  const id = randomUUID().slice(0, 8);
  await page.goto(`${origin}/signup`);
  await page.getByLabel("Your name").fill(`Host ${id}`);
  await page.getByLabel("Email").fill(`host-${id}@newco.test`);
  await page.getByLabel("Password").fill("a-long-enough-password");
  await page.getByLabel("Organization name").fill(`Host Labs ${id}`);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(
    new RegExp(`^${origin.replace(/[.]/g, "\\.")}/host-labs-[a-z0-9-]+/catalog$`),
    SUBMIT,
  );
  await expect(page.getByText(`host-${id}@newco.test`)).toBeVisible();
}

async function signInAt(page: Page, origin: string) {
  await page.goto(`${origin}/signin`);
  await page.getByLabel("Email").fill(USERS.member.email);
  await page.getByLabel("Password").fill(USERS.member.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(`${origin}/acme-ai/catalog`, SUBMIT);
  await expect(page.getByText(USERS.member.email)).toBeVisible();
}

test("at 127.0.0.1: sign-up and sign-in stay on 127.0.0.1, signed in", async ({ page }) => {
  const origin = `http://127.0.0.1:${port}`;
  await signUpAt(page, origin);
  await page.context().clearCookies();
  await signInAt(page, origin);
});

test.describe("under another host name", () => {
  let browser: Browser;
  test.beforeAll(async () => {
    // "forja-lan" resolves to 127.0.0.1 inside this browser only (no hosts file, no DNS).
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP forja-lan 127.0.0.1"],
    });
  });
  test.afterAll(async () => {
    await browser.close();
  });

  test("sign-up and sign-in work and stay on that host", async () => {
    const page = await browser.newPage({ locale: "en-US" });
    const origin = `http://forja-lan:${port}`;
    await signUpAt(page, origin);
    await page.context().clearCookies();
    await signInAt(page, origin);
    await page.close();
  });
});

// Issue 12 item 5: "/%09/evil.example" became "//evil.example" after sign-in (an open redirect).
test.describe("the sign-in callback", () => {
  for (const evil of ["/%09/evil.example", "//evil.example", "/%5Cevil.example", "https://evil.example/x"]) {
    test(`never leaves the site: ${evil}`, async ({ page, baseURL }) => {
      const requested: string[] = [];
      page.on("request", (r) => requested.push(new URL(r.url()).host));
      await page.goto(`/signin?callbackUrl=${evil.startsWith("/%") ? evil : encodeURIComponent(evil)}`);
      await page.getByLabel("Email").fill(USERS.viewer.email);
      await page.getByLabel("Password").fill(USERS.viewer.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(page).not.toHaveURL(/\/signin/, SUBMIT);
      expect(new URL(page.url()).origin).toBe(baseURL);
      expect(requested.filter((h) => h.includes("evil"))).toEqual([]);
    });
  }

  test("goes to a path on this site that it names", async ({ page }) => {
    await page.goto(`/signin?callbackUrl=${encodeURIComponent("/acme-ai/usage?tab=1")}`);
    await page.getByLabel("Email").fill(USERS.viewer.email);
    await page.getByLabel("Password").fill(USERS.viewer.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/acme-ai\/usage\?tab=1$/, SUBMIT);
  });
});

// Issue 12 item 15: no security headers. The CSP must still let Next's own inline scripts run (this page
// hydrates and signs in with JavaScript) and report no violation.
test("every page carries the security headers, and the CSP blocks nothing of the console's own", async ({
  page,
}) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/.test(m.text())) violations.push(m.text());
  });
  const res = await page.goto("/signin");
  const h = res?.headers() ?? {};
  expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(h["content-security-policy"]).toContain("default-src 'self'");
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["referrer-policy"]).toBe("same-origin");
  expect(h["x-frame-options"]).toBe("DENY");
  await page.getByLabel("Email").fill(USERS.viewer.email);
  await page.getByLabel("Password").fill(USERS.viewer.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/acme-ai\/catalog$/, SUBMIT);
  await page.getByRole("combobox", { name: "Switch organization" }).focus();
  expect(violations).toEqual([]);
});

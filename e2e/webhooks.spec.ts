import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { as, expectAccessible } from "./support/fixtures";

/**
 * Webhooks as an organization admin, against a real HTTP receiver started by the test on loopback: the
 * console's worker delivers to it, and the test checks what arrived the way a receiver would.
 */
type Got = { headers: http.IncomingHttpHeaders; body: string };
let server: http.Server;
let port = 0;
const got: Got[] = [];
/**
 * Deliveries (by webhook-id) the receiver answers 500 to, once each: keyed by id, since the endpoint also
 * gets the demo organization's budget-threshold events, which must not take the failure meant for a resend.
 */
const failOnce = new Set<string>();

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      const id = String(req.headers["webhook-id"]);
      const status = failOnce.delete(id) ? 500 : 200;
      res.writeHead(status).end(status === 200 ? "thanks" : "receiver down");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
test.afterAll(async () => {
  await new Promise((r) => server.close(r));
});

function signedWith(secret: string, g: Got): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const mac = createHmac("sha256", key)
    .update(`${g.headers["webhook-id"]}.${g.headers["webhook-timestamp"]}.${g.body}`)
    .digest("base64");
  return g.headers["webhook-signature"] === `v1,${mac}`;
}

test.describe("webhooks as an admin", () => {
  test.use(as("admin"));

  test("add an endpoint, keep its secret, send a test event, see a 500 retried, resend, pause and delete", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto("/acme-ai/settings");
    await page
      .getByRole("navigation", { name: "Settings sections" })
      .getByRole("link", { name: "Webhooks" })
      .click();
    await expect(page).toHaveURL(/\/acme-ai\/settings\/webhooks$/);
    await expect(page.getByRole("heading", { name: "Webhooks", level: 2 })).toBeVisible();
    await expectAccessible(page);

    // Plain http to another host is refused at the field, and nothing is added.
    await page.getByLabel("Endpoint URL").fill("http://hooks.example.com/forja");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByLabel("Endpoint URL")).toHaveAccessibleDescription(/Use an https:\/\/ URL/);

    const url = `http://127.0.0.1:${port}/forja-${Date.now().toString(36)}`;
    await page.getByLabel("Endpoint URL").fill(url);
    await page.getByLabel("Description").fill("Journey receiver");
    // Not the instance events (checked by default): the other journeys run beside this one in the demo
    // organization, and a state change of theirs could reach the new endpoint before its empty state is seen.
    await page.getByRole("checkbox", { name: /Instance state changed/ }).uncheck();
    await page.getByRole("checkbox", { name: /Budget threshold crossed/ }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();

    const reveal = page.getByRole("region", { name: "Signing secret — shown once" });
    await expect(reveal.getByRole("heading", { name: "Signing secret — shown once" })).toBeFocused();
    const secret = await reveal.getByLabel("Signing secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await reveal.getByRole("button", { name: "I have stored the secret" }).click();
    await expect(reveal).toBeHidden();

    const row = page.getByRole("row", { name: new RegExp(url.replaceAll(".", "\\.")) });
    await expect(row).toContainText("Active");
    await expect(row).toContainText("Nothing sent yet");
    // The secret is never shown again: only its last characters.
    await expect(page.getByText(secret)).toHaveCount(0);
    await row.getByRole("link", { name: `Details of ${url}` }).click();
    await expect(page.getByRole("heading", { name: "Endpoint", exact: true, level: 2 })).toBeVisible();
    await expect(page.getByText(`whsec_…${secret.slice(-4)}`)).toBeVisible();
    await expect(page.getByText("No deliveries yet.")).toBeVisible();

    // A test event: the worker delivers it, signed with the secret shown once.
    const before = got.length;
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Test event queued" })).toBeVisible();
    const delivery = page.getByRole("listitem").filter({ hasText: "Test event" }).first();
    await expect(delivery).toContainText("Delivered", { timeout: 30_000 });
    const isTest = (g: Got) => JSON.parse(g.body).type === "webhook.test";
    await expect.poll(() => got.slice(before).filter(isTest).length).toBe(1);
    const arrived = got.slice(before).find(isTest) as Got;
    expect(signedWith(secret, arrived)).toBe(true);
    const id = String(arrived.headers["webhook-id"]);
    await expect(delivery).toContainText(id);
    await expectAccessible(page);

    // The receiver fails once: the resend is retried after the backoff and lands, same webhook-id.
    failOnce.add(id);
    await delivery.getByRole("button", { name: `Resend delivery ${id}` }).click();
    await expect(delivery).toContainText("Delivered", { timeout: 45_000 });
    await expect(delivery).toContainText("Attempts: 3", { timeout: 45_000 });
    await delivery.getByText("Attempts and payload").click();
    const attempts = delivery.getByRole("list", { name: `Attempts for delivery ${id}` });
    await expect(attempts.getByRole("listitem")).toHaveCount(3);
    await expect(attempts.getByRole("listitem").nth(1)).toContainText("500");
    await expect(attempts.getByRole("listitem").nth(1)).toContainText("receiver down");
    // The first delivery, the failed resend and its retry arrived under one webhook-id.
    expect(got.filter((g) => g.headers["webhook-id"] === id)).toHaveLength(3);

    await page.getByRole("button", { name: "Pause" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Endpoint paused" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();

    await page.getByRole("button", { name: "Delete endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this endpoint?" });
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await dialog.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page).toHaveURL(/\/acme-ai\/settings\/webhooks$/);
    await expect(page.getByRole("row", { name: new RegExp(url.replaceAll(".", "\\.")) })).toHaveCount(0);
  });
});

test.describe("webhooks as a member", () => {
  test.use(as("member"));

  test("a member is told only admins manage webhooks and sees no form", async ({ page }) => {
    await page.goto("/acme-ai/settings/webhooks");
    await expect(page.getByRole("note")).toHaveText("Only admins and owners manage webhooks.");
    await expect(page.getByLabel("Endpoint URL")).toHaveCount(0);
    await expectAccessible(page);
  });
});

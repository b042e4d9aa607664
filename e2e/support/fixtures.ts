import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { AUTH_DIR, MAILBOX_DIR, type Role } from "./env";
import { readMailbox } from "./smtp";

/** Storage state for a role signed in by the setup project. */
export function as(role: Role): { storageState: string } {
  return { storageState: path.join(AUTH_DIR, `${role}.json`) };
}

/** axe must find no serious or critical violation on the current page. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual(
    [],
  );
}

/** Wait until a message for `to` arrives in the test SMTP server's mailbox. */
export async function waitForMail(to: string, subject?: RegExp) {
  let found: Awaited<ReturnType<typeof readMailbox>>[number] | undefined;
  await expect
    .poll(
      async () => {
        const all = await readMailbox(MAILBOX_DIR);
        found = all.find((m) => m.to.includes(to) && (!subject || subject.test(m.subject)));
        return Boolean(found);
      },
      { timeout: 20_000, message: `email to ${to}` },
    )
    .toBe(true);
  if (!found) throw new Error("unreachable");
  return found;
}

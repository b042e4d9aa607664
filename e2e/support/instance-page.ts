import fs from "node:fs";
import { expect, type Page } from "@playwright/test";
import pg from "pg";
import { type E2EState, STATE_FILE } from "./env";

/** What the global setup started (database, engines), read from its state file. */
export const e2eState = () => JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as E2EState;

/** Direct reads on the throwaway e2e database (global-setup refuses a non-local one). */
export async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: e2eState().databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** The instance page's state badge. */
export const stateOf = (page: Page) => page.getByRole("status", { name: /^State: / });

/** The notebook token shown in the instance page's Connection section (the value beside "Copy Token"). */
export async function connectionToken(page: Page): Promise<string> {
  const value = page
    .getByRole("region", { name: "Connection" })
    .getByRole("definition")
    .filter({ has: page.getByRole("button", { name: "Copy Token" }) })
    .locator("code");
  return ((await value.textContent()) ?? "").trim();
}

/** Stop or terminate from the instance page (confirming the dialog) and wait until it has. */
async function endOnPage(
  page: Page,
  verb: "Stop" | "Terminate",
  name: string,
  timeout: number,
): Promise<void> {
  await page.getByRole("button", { name: verb }).click();
  await page
    .getByRole("dialog", { name: new RegExp(`^${verb} ${name}`) })
    .getByRole("button", { name: `${verb} instance` })
    .click();
  const state = verb === "Stop" ? "Stopped" : "Terminated";
  await expect(stateOf(page)).toHaveAccessibleName(`State: ${state}`, { timeout });
}

export const terminateOnPage = (page: Page, name: string, timeout: number) =>
  endOnPage(page, "Terminate", name, timeout);
export const stopOnPage = (page: Page, name: string, timeout: number) =>
  endOnPage(page, "Stop", name, timeout);

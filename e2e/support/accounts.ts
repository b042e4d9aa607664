import { randomUUID } from "node:crypto";
import { expect, type Page } from "@playwright/test";

export type FreshAccount = {
  name: string;
  email: string;
  password: string;
  orgName: string;
  orgSlug: string;
};

/** Sign up a brand-new person with their own organization through the real form; they land in its catalog. */
export async function signUpFresh(page: Page, label = "fresh"): Promise<FreshAccount> {
  const id = randomUUID().slice(0, 8);
  const account = {
    name: `${label} ${id}`,
    email: `${label}-${id}@newco.test`,
    password: "a-long-enough-password",
    orgName: `${label} Labs ${id}`,
  };
  await page.goto("/signup");
  await page.getByLabel("Your name").fill(account.name);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByLabel("Organization name").fill(account.orgName);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/[a-z0-9-]+\/catalog$/, { timeout: 20_000 });
  const orgSlug = new URL(page.url()).pathname.split("/")[1] ?? "";
  return { ...account, orgSlug };
}

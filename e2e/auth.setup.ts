import path from "node:path";
import { expect, test as setup } from "@playwright/test";
import { AUTH_DIR, type Role, USERS } from "./support/env";

// Sign in once per role through the real form and keep the session for the journeys.
for (const role of Object.keys(USERS) as Role[]) {
  setup(`sign in as ${role}`, async ({ page }) => {
    const u = USERS[role];
    await page.goto("/signin");
    await page.getByLabel("Email").fill(u.email);
    await page.getByLabel("Password").fill(u.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    // The sign-in runs on the server (argon2 + next-auth); a loaded machine needs more than the default wait.
    await expect(page).not.toHaveURL(/\/signin/, { timeout: 30_000 });
    await page.context().storageState({ path: path.join(AUTH_DIR, `${role}.json`) });
  });
}

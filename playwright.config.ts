import { defineConfig, devices } from "@playwright/test";
import { chromiumPath } from "./e2e/support/chromium";

export { chromiumPath };

// Ports are chosen once in the main process; workers inherit them through the environment.
if (!process.env.E2E_PORT) process.env.E2E_PORT = String(3100 + Math.floor(Math.random() * 800));
const port = Number(process.env.E2E_PORT);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/support/global-setup.ts",
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ["list"],
    ...(process.env.CI ? [] : [["html", { open: "never" }] as const]),
    // npm test reads this to print one closing "N passed, N failed" line for the whole run.
    ...(process.env.FORJA_E2E_JSON ? [["json", { outputFile: process.env.FORJA_E2E_JSON }] as const] : []),
  ],
  use: {
    baseURL,
    trace: "retain-on-failure",
    locale: "en-US",
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    {
      name: "chromium",
      use: { ...devices["Desktop Chrome"], channel: undefined },
      dependencies: ["setup"],
      testIgnore: /auth\.setup\.ts/,
    },
  ],
});

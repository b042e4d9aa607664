import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { missingSharedSettings } from "@/lib/runtime/required-env";

// Issue 12 item 14: with DATABASE_URL every host generated its own session secret (users signed out at random
// behind a load balancer), and a process without SMTP_URL kept everyone's mail in the outbox.
describe("settings every replica must share", () => {
  it("are not needed with the embedded database, and are all named when DATABASE_URL is set", () => {
    expect(missingSharedSettings({})).toEqual([]);
    const missing = missingSharedSettings({ DATABASE_URL: "postgres://db/forja" });
    expect(missing.join("\n")).toMatch(/NEXTAUTH_SECRET/);
    expect(missing.join("\n")).toMatch(/SMTP_URL/);
    expect(
      missingSharedSettings({
        DATABASE_URL: "postgres://db/forja",
        NEXTAUTH_SECRET: "s",
        FORJA_OUTBOX_ONLY: "1",
      }),
    ).toEqual([]);
    expect(
      missingSharedSettings({
        DATABASE_URL: "postgres://db/forja",
        NEXTAUTH_SECRET: "s",
        SMTP_URL: "smtp://m",
      }),
    ).toEqual([]);
  });

  it("a worker started without NEXTAUTH_SECRET stops at once with the fix", () => {
    const env = {
      ...process.env,
      DATABASE_URL: "postgres://127.0.0.1:1/none",
      SMTP_URL: "smtp://127.0.0.1:1",
    };
    delete env.NEXTAUTH_SECRET;
    const r = spawnSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/worker.ts"],
      {
        env,
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/NEXTAUTH_SECRET is not set/);
  });
});

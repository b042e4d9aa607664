import fs from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { signUp } from "@/lib/auth";
import { ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { RESERVED_ORG_SLUGS } from "@/lib/tenancy";
import { uniqueEmail } from "@/test/factories";

// Issue 12 item 15: an organization named "Admin" got the slug "admin" and its owner landed on /admin.
describe("organization slugs never shadow a top-level route", () => {
  it("the reserved list covers every top-level route in app/ (a new route must be added to it)", () => {
    const top = fs
      .readdirSync("app", { withFileTypes: true })
      // `_name` folders are Next's private folders (not routes), e.g. app/_kit.
      .filter((e) => e.isDirectory() && !/^[([_]/.test(e.name))
      .map((e) => e.name);
    // Route groups are transparent: their children are top-level routes too.
    const grouped = fs
      .readdirSync("app", { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name.startsWith("("))
      .flatMap((g) =>
        fs
          .readdirSync(`app/${g.name}`, { withFileTypes: true })
          .filter((e) => e.isDirectory() && !/^[([_]/.test(e.name))
          .map((e) => e.name),
      );
    const routes = [...top, ...grouped];
    expect(routes).toContain("admin");
    expect(routes.filter((r) => !RESERVED_ORG_SLUGS.has(r))).toEqual([]);
  });

  it.each(["Admin", "API", "SignIn", "invite", "signup"])(
    "sign-up with the organization name %s is a field error and writes nothing",
    async (organizationName) => {
      const email = uniqueEmail("reserved");
      const err = await signUp(
        {},
        { name: "Squatter", email, password: "a-long-enough-password", organizationName },
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).fieldErrors.organizationName?.[0]).toMatch(/reserved/);
      expect(await getDb().$count(users, eq(users.email, email))).toBe(0);
    },
  );
});

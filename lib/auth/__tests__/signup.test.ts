import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { hitRateLimit, SIGN_IN_LIMITS, signInKeys, signUp, verifyCredentials } from "@/lib/auth";
import { RateLimitedError, UnauthorizedError, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { memberships, organizations, projects, users } from "@/lib/db/schema";
import { uniqueEmail } from "@/test/factories";

const good = () => ({
  name: "Grace Hopper",
  email: uniqueEmail("grace"),
  password: "a-long-enough-password",
  organizationName: "Compilers Inc",
});

describe("signUp", () => {
  it("creates the user, an organization they own and a default development project", async () => {
    const input = good();
    const { user, org } = await signUp({}, input);
    const db = getDb();
    expect(user.email).toBe(input.email);
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    const [m] = await db.select().from(memberships).where(eq(memberships.userId, user.id));
    expect(m?.role).toBe("owner");
    expect(m?.orgId).toBe(org.id);
    const ps = await db.select().from(projects).where(eq(projects.orgId, org.id));
    expect(ps.map((p) => [p.slug, p.environment])).toEqual([["default", "development"]]);
  });

  it("gives each organization a unique slug", async () => {
    const a = await signUp({}, { ...good(), organizationName: "Same Name Labs" });
    const b = await signUp({}, { ...good(), organizationName: "Same Name Labs" });
    expect(a.org.slug).not.toBe(b.org.slug);
    expect(b.org.slug).toMatch(/^same-name-labs/);
  });

  it.each([
    ["empty name", { name: "" }, "name"],
    ["too long name", { name: "x".repeat(101) }, "name"],
    ["invalid email", { email: "not-an-email" }, "email"],
    ["short password", { password: "short" }, "password"],
    ["too long password", { password: "x".repeat(129) }, "password"],
    ["wrong type", { organizationName: 42 }, "organizationName"],
    ["one-letter organization", { organizationName: "x" }, "organizationName"],
  ])("refuses %s with a field error and writes nothing", async (_label, override, field) => {
    const input = { ...good(), ...override };
    // Counted by this input's own email and organization name: other test files sign up in parallel.
    const mine = async () => [
      await getDb().$count(users, eq(users.email, String(input.email))),
      await getDb().$count(organizations, eq(organizations.name, String(input.organizationName))),
    ];
    const before = await mine();
    const err = await signUp({}, input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(Object.keys((err as ValidationError).fieldErrors)).toContain(field);
    expect(await mine()).toEqual(before);
  });

  it("refuses a duplicate email (any case) and writes nothing", async () => {
    // An organization name of its own, counted by name: other test files sign up in parallel (a count of all
    // organizations failed in CI when one of theirs landed between the two reads).
    const input = { ...good(), organizationName: `Duplicate ${uniqueEmail("org").split("@")[0]}` };
    await signUp({}, input);
    const named = () => getDb().$count(organizations, eq(organizations.name, input.organizationName));
    expect(await named()).toBe(1);
    const err = await signUp({}, { ...input, email: input.email.toUpperCase() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).fieldErrors.email?.[0]).toMatch(/already exists/);
    expect(await named()).toBe(1);
    expect(await getDb().$count(users, eq(users.email, input.email))).toBe(1);
  });
});

describe("signUp rate limit", () => {
  it("allows 10 sign-ups an hour per client IP, refuses the 11th without writing it, and other IPs go on", async () => {
    const now = () => new Date("2030-03-01T10:00:00Z");
    const ip = `ip-signup-${Math.random()}`;
    for (let i = 0; i < 10; i++) await signUp({ now }, good(), { clientIp: ip });
    const eleventh = good();
    await expect(signUp({ now }, eleventh, { clientIp: ip })).rejects.toBeInstanceOf(RateLimitedError);
    expect(await getDb().$count(users, eq(users.email, eleventh.email))).toBe(0);
    await expect(signUp({ now }, good(), { clientIp: `${ip}-other` })).resolves.toBeTruthy();
    const nextHour = () => new Date("2030-03-01T11:00:01Z");
    await expect(signUp({ now: nextHour }, good(), { clientIp: ip })).resolves.toBeTruthy();
  });
});

describe("verifyCredentials", () => {
  it("accepts the right password and refuses a wrong one", async () => {
    const input = good();
    await signUp({}, input);
    const ip = `10.0.0.${Math.floor(Math.random() * 250)}`;
    const user = await verifyCredentials({}, { email: input.email, password: input.password }, ip);
    expect(user.email).toBe(input.email);
    await expect(
      verifyCredentials({}, { email: input.email, password: "wrong-password-123" }, ip),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("rate-limits one address guessing one account, even with the right password, until the window passes", async () => {
    const input = good();
    await signUp({}, input);
    const t0 = new Date("2030-01-01T00:00:00Z");
    const now = () => t0;
    for (let i = 0; i < 8; i++) {
      await verifyCredentials({ now }, { email: input.email, password: "wrong-password-123" }, "ip-a").catch(
        () => {},
      );
    }
    await expect(
      verifyCredentials({ now }, { email: input.email, password: input.password }, "ip-a"),
    ).rejects.toBeInstanceOf(RateLimitedError);
    const later = () => new Date(t0.getTime() + 301_000);
    await expect(
      verifyCredentials({ now: later }, { email: input.email, password: input.password }, "ip-a"),
    ).resolves.toMatchObject({ email: input.email });
  });

  // Issue 12 item 4: the per-email limit was global, so a stranger's 8 wrong passwords locked the owner out.
  it("a stranger's failed attempts do not lock the account's owner out from their own address", async () => {
    const input = good();
    await signUp({}, input);
    const now = () => new Date("2030-03-01T00:00:00Z");
    for (let i = 0; i < 12; i++) {
      await verifyCredentials(
        { now },
        { email: input.email, password: "wrong-password-123" },
        "ip-stranger",
      ).catch(() => {});
    }
    await expect(
      verifyCredentials({ now }, { email: input.email, password: input.password }, "ip-owner"),
    ).resolves.toMatchObject({ email: input.email });
  });

  it("a spray from many addresses at one account still meets the slower per-email backstop", async () => {
    const input = good();
    await signUp({}, input);
    const now = () => new Date("2030-04-01T00:00:00Z");
    // The earlier attempts of a spray, each from another address (counted directly: 99 password checks are slow).
    const { perEmail } = signInKeys(input.email, "any");
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail.max - 1; i++) {
      await hitRateLimit(getDb(), perEmail, SIGN_IN_LIMITS.perEmail, now());
    }
    await expect(
      verifyCredentials({ now }, { email: input.email, password: input.password }, "ip-s-99"),
    ).resolves.toMatchObject({ email: input.email });
    await expect(
      verifyCredentials({ now }, { email: input.email, password: input.password }, "ip-s-100"),
    ).rejects.toBeInstanceOf(RateLimitedError);
  });

  it("rate-limits attempts per client IP across emails", async () => {
    const now = () => new Date("2030-02-01T00:00:00Z");
    const ip = `ip-flood-${Math.random()}`;
    for (let i = 0; i < 20; i++) {
      await verifyCredentials(
        { now },
        { email: uniqueEmail("nobody"), password: "whatever-123456" },
        ip,
      ).catch(() => {});
    }
    await expect(
      verifyCredentials({ now }, { email: uniqueEmail("nobody"), password: "whatever-123456" }, ip),
    ).rejects.toBeInstanceOf(RateLimitedError);
  });
});

import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ForbiddenError, NotFoundError, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { organizations, regions } from "@/lib/db/schema";
import {
  getOrganizationSettings,
  listJurisdictions,
  renameOrganization,
  setDataResidency,
} from "@/lib/tenancy";
import { newTenant } from "@/test/factories";
import { addMember, auditActions } from "./helpers";

// Jurisdiction codes of this file only: the regions table is shared by every test file.
const id = randomUUID().slice(0, 6).toUpperCase();
const J1 = `T1-${id}`;
const J2 = `T2-${id}`;

beforeAll(async () => {
  const region = (code: string, name: string, jurisdiction: string) => ({
    code: `${code}-${id}`.toLowerCase(),
    name,
    city: name,
    country: "ES",
    jurisdiction,
    pue: 1.2,
    gridGco2PerKwh: 100,
  });
  await getDb()
    .insert(regions)
    .values([region("a", "Alpha", J1), region("b", "Beta", J1), region("c", "Gamma", J2)]);
});

const orgRow = async (orgId: string) =>
  (await getDb().select().from(organizations).where(eq(organizations.id, orgId)))[0];

describe("listJurisdictions", () => {
  it("offers each jurisdiction of the regions once, with its regions' names", async () => {
    const list = await listJurisdictions();
    expect(list.filter((j) => j.code === J1)).toEqual([{ code: J1, regions: ["Alpha", "Beta"] }]);
    expect(list.find((j) => j.code === J2)?.regions).toEqual(["Gamma"]);
  });
});

describe("renameOrganization", () => {
  it("renames (admins+), keeps the slug and audits from/to", async () => {
    const { org } = await newTenant("set-rename");
    const admin = await addMember(org.id, "admin");
    await renameOrganization(admin.ctx, org.slug, { name: "  Renamed Labs " });
    expect(await orgRow(org.id)).toMatchObject({ name: "Renamed Labs", slug: org.slug });
    expect(await auditActions(org.id)).toContain("organization.renamed");
  });

  it.each(["member", "viewer"] as const)("refuses a %s", async (role) => {
    const { org } = await newTenant("set-weak");
    const weak = await addMember(org.id, role);
    await expect(renameOrganization(weak.ctx, org.slug, { name: "Taken Over" })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect((await orgRow(org.id))?.name).toBe(org.name);
  });

  it("answers NotFound to another organization's owner", async () => {
    const a = await newTenant("set-a");
    const b = await newTenant("set-b");
    await expect(renameOrganization(b.ctx, a.org.slug, { name: "Mine now" })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(getOrganizationSettings(b.ctx, a.org.slug)).rejects.toBeInstanceOf(NotFoundError);
    expect((await orgRow(a.org.id))?.name).toBe(a.org.name);
  });

  it.each([
    ["empty", ""],
    ["one letter", "x"],
    ["too long", "x".repeat(81)],
    ["the wrong type", 12345],
  ])("refuses a name that is %s, writing nothing", async (_label, name) => {
    const { org, ctx } = await newTenant("set-val");
    const audit = (await auditActions(org.id)).length;
    const err = await renameOrganization(ctx, org.slug, { name }).catch((e: unknown) => e);
    expect((err as ValidationError).fieldErrors?.name).toBeTruthy();
    expect((await orgRow(org.id))?.name).toBe(org.name);
    expect((await auditActions(org.id)).length).toBe(audit);
  });
});

describe("setDataResidency", () => {
  it("stores the chosen jurisdictions (deduplicated), audits, and clears back to no restriction", async () => {
    const { org, ctx } = await newTenant("set-res");
    await setDataResidency(ctx, org.slug, { jurisdictions: [J2, J1, J2] });
    expect((await orgRow(org.id))?.allowedJurisdictions).toEqual([J1, J2].sort());
    await setDataResidency(ctx, org.slug, {});
    expect((await orgRow(org.id))?.allowedJurisdictions).toEqual([]);
    expect(
      (await auditActions(org.id)).filter((a) => a === "organization.data_residency_changed"),
    ).toHaveLength(2);
  });

  it("accepts one jurisdiction given as a single form value", async () => {
    const { org, ctx } = await newTenant("set-res-one");
    await setDataResidency(ctx, org.slug, { jurisdictions: J1 });
    expect((await orgRow(org.id))?.allowedJurisdictions).toEqual([J1]);
  });

  it("refuses a jurisdiction the catalog does not have, and a wrong type, writing nothing", async () => {
    const { org, ctx } = await newTenant("set-res-bad");
    for (const jurisdictions of [[J1, "Atlantis"], [42], "x".repeat(65)]) {
      const err = await setDataResidency(ctx, org.slug, { jurisdictions }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect(Object.keys((err as ValidationError).fieldErrors)[0]).toMatch(/^jurisdictions/);
    }
    expect((await orgRow(org.id))?.allowedJurisdictions).toEqual([]);
  });

  it("refuses a viewer and another tenant", async () => {
    const { org } = await newTenant("set-res-weak");
    const viewer = await addMember(org.id, "viewer");
    const other = await newTenant("set-res-other");
    await expect(setDataResidency(viewer.ctx, org.slug, { jurisdictions: [J1] })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(setDataResidency(other.ctx, org.slug, { jurisdictions: [J1] })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect((await orgRow(org.id))?.allowedJurisdictions).toEqual([]);
  });
});

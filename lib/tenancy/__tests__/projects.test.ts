import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ForbiddenError, NotFoundError, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { projects } from "@/lib/db/schema";
import { createProject, listProjects, updateProject } from "@/lib/tenancy";
import { newTenant } from "@/test/factories";
import { addMember, auditActions } from "./helpers";

const countProjects = (orgId: string) => getDb().$count(projects, eq(projects.orgId, orgId));

describe("createProject", () => {
  it("derives the slug from the name when it is left empty, and audits the creation", async () => {
    const { org } = await newTenant("prj");
    const admin = await addMember(org.id, "admin");
    const p = await createProject(admin.ctx, org.slug, {
      name: "  Vision Research ",
      slug: "",
      environment: "staging",
    });
    expect(p).toMatchObject({ name: "Vision Research", slug: "vision-research", environment: "staging" });
    expect(await auditActions(org.id)).toContain("project.created");
    expect((await listProjects(admin.ctx, org.slug)).map((x) => x.slug)).toEqual([
      "default",
      "vision-research",
    ]);
  });

  it("keeps slugs unique per organization (field error), but another organization may reuse one", async () => {
    const a = await newTenant("prj-a");
    const b = await newTenant("prj-b");
    await createProject(a.ctx, a.org.slug, {
      name: "Inference",
      slug: "inference",
      environment: "production",
    });
    const before = await countProjects(a.org.id);
    const err = await createProject(a.ctx, a.org.slug, {
      name: "Inference again",
      slug: "inference",
      environment: "development",
    }).catch((e: unknown) => e);
    expect((err as ValidationError).fieldErrors?.slug?.[0]).toMatch(/already exists/);
    expect(await countProjects(a.org.id)).toBe(before);
    await expect(
      createProject(b.ctx, b.org.slug, { name: "Inference", slug: "inference", environment: "production" }),
    ).resolves.toMatchObject({ slug: "inference" });
  });

  it("refuses a derived slug that collides with the default project", async () => {
    const { org, ctx } = await newTenant("prj-default");
    const err = await createProject(ctx, org.slug, { name: "Default", environment: "development" }).catch(
      (e: unknown) => e,
    );
    expect((err as ValidationError).fieldErrors?.slug).toBeTruthy();
  });

  it.each(["member", "viewer"] as const)("refuses a %s", async (role) => {
    const { org } = await newTenant("prj-weak");
    const weak = await addMember(org.id, role);
    await expect(
      createProject(weak.ctx, org.slug, { name: "Sneaky", environment: "development" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect(await countProjects(org.id)).toBe(1);
  });

  it("answers NotFound to another organization's owner", async () => {
    const a = await newTenant("prj-nf-a");
    const b = await newTenant("prj-nf-b");
    await expect(
      createProject(b.ctx, a.org.slug, { name: "X project", environment: "staging" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(listProjects(b.ctx, a.org.slug)).rejects.toBeInstanceOf(NotFoundError);
    expect(await countProjects(a.org.id)).toBe(1);
  });

  it.each([
    ["an empty name", { name: "" }, "name"],
    ["a too long name", { name: "x".repeat(61) }, "name"],
    ["a name of the wrong type", { name: ["a"] }, "name"],
    ["an unknown environment", { environment: "qa" }, "environment"],
    ["a slug with capitals", { slug: "My-Project" }, "slug"],
    ["a slug with a double hyphen", { slug: "a--b" }, "slug"],
    ["a too long slug", { slug: "a".repeat(41) }, "slug"],
    ["a name without letters or digits", { name: "!!!" }, "slug"],
  ])("refuses %s with a field error and writes nothing", async (_label, override, field) => {
    const { org, ctx } = await newTenant("prj-val");
    const err = await createProject(ctx, org.slug, {
      name: "Valid name",
      environment: "development",
      ...override,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(Object.keys((err as ValidationError).fieldErrors)).toContain(field);
    expect(await countProjects(org.id)).toBe(1);
  });
});

describe("updateProject", () => {
  it("renames and changes the environment, keeps the slug, and audits the change", async () => {
    const { org, ctx, project } = await newTenant("prj-upd");
    const after = await updateProject(ctx, org.slug, {
      projectId: project.id,
      name: "Main",
      environment: "production",
    });
    expect(after).toMatchObject({ name: "Main", environment: "production", slug: "default" });
    expect(await auditActions(org.id)).toContain("project.updated");
  });

  it("answers NotFound for another organization's project, even through the caller's own organization", async () => {
    const a = await newTenant("prj-upd-a");
    const b = await newTenant("prj-upd-b");
    const input = { projectId: a.project.id, name: "Hijacked", environment: "production" };
    await expect(updateProject(b.ctx, b.org.slug, input)).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateProject(b.ctx, a.org.slug, input)).rejects.toBeInstanceOf(NotFoundError);
    const [row] = await getDb().select().from(projects).where(eq(projects.id, a.project.id));
    expect(row?.name).toBe("Default");
  });

  it("refuses a member and bad input, changing nothing", async () => {
    const { org, project } = await newTenant("prj-upd-weak");
    const member = await addMember(org.id, "member");
    await expect(
      updateProject(member.ctx, org.slug, { projectId: project.id, name: "Mine", environment: "staging" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    const admin = await addMember(org.id, "admin");
    const err = await updateProject(admin.ctx, org.slug, {
      projectId: project.id,
      name: "",
      environment: "prod",
    }).catch((e: unknown) => e);
    expect(Object.keys((err as ValidationError).fieldErrors).sort()).toEqual(["environment", "name"]);
    const [row] = await getDb().select().from(projects).where(eq(projects.id, project.id));
    expect(row).toMatchObject({ name: "Default", environment: "development" });
  });
});

import { describe, expect, it } from "vitest";
import {
  AUDIT_PAGE_SIZE,
  exportPlatformAuditCsv,
  listAuditLog,
  listPlatformAuditLog,
  writeAudit,
} from "@/lib/audit";
import { ForbiddenError, NotFoundError, type UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { addMember, newTenant } from "@/test/factories";

async function tenantWithLog() {
  const t = await newTenant("audit");
  const db = getDb();
  const admin = await addMember(t.org.id, "admin", "audit-admin");
  const member = await addMember(t.org.id, "member", "audit-member");
  const base = Date.parse("2030-01-01T00:00:00Z");
  for (let i = 0; i < 3; i++) {
    await writeAudit(db, t.actor, {
      orgId: t.org.id,
      action: i === 1 ? "project.created" : "instance.launched",
      targetType: "instance",
      targetId: `i-${i}`,
      data: { n: i },
      at: new Date(base + i * 60_000),
    });
  }
  return { ...t, admin, member };
}

describe("listAuditLog (tenant)", () => {
  it("shows an admin their organization's events newest first, with the actor's email", async () => {
    const t = await tenantWithLog();
    const log = await listAuditLog(t.admin.ctx, t.org.slug);
    const mine = log.rows.filter((r) => r.targetId?.startsWith("i-"));
    expect(mine.map((r) => r.targetId)).toEqual(["i-2", "i-1", "i-0"]);
    expect(mine[0]).toMatchObject({ actorEmail: t.user.email, data: { n: 2 }, org: { slug: t.org.slug } });
    expect(log.rows.every((r) => r.org?.slug === t.org.slug)).toBe(true);
    expect(log.actions).toEqual(expect.arrayContaining(["instance.launched", "project.created"]));
  });

  it("filters by action", async () => {
    const t = await tenantWithLog();
    const log = await listAuditLog(t.ctx, t.org.slug, { action: "project.created" });
    expect(log.rows.map((r) => r.targetId)).toEqual(["i-1"]);
    expect(log.total).toBe(1);
  });

  it("refuses a member (Forbidden) and another organization's admin (NotFound)", async () => {
    const t = await tenantWithLog();
    const other = await newTenant("audit-other");
    await expect(listAuditLog(t.member.ctx, t.org.slug)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(listAuditLog(other.ctx, t.org.slug)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("paging through the audit log", () => {
  it("walks 120 rows in pages of AUDIT_PAGE_SIZE, newest first, without repeats or gaps; past the end is empty", async () => {
    const t = await newTenant("audit-pages");
    const base = Date.parse("2031-03-01T00:00:00Z");
    for (let i = 0; i < 120; i++) {
      await writeAudit(getDb(), t.actor, {
        orgId: t.org.id,
        action: "instance.launched",
        targetType: "instance",
        targetId: `p-${i}`,
        data: { n: i },
        // Pairs share a timestamp: the order must still be total (at, then id).
        at: new Date(base + Math.floor(i / 2) * 1_000),
      });
    }
    const filter = { action: "instance.launched" };
    const seen: string[] = [];
    const first = await listAuditLog(t.ctx, t.org.slug, filter);
    expect(first.total).toBe(120);
    const pages = Math.ceil(120 / AUDIT_PAGE_SIZE);
    for (let page = 1; page <= pages; page++) {
      const log = await listAuditLog(t.ctx, t.org.slug, { ...filter, page });
      expect(log.rows.length).toBe(page < pages ? AUDIT_PAGE_SIZE : 120 - (pages - 1) * AUDIT_PAGE_SIZE);
      seen.push(...log.rows.map((r) => r.targetId as string));
    }
    expect(new Set(seen).size).toBe(120);
    // Newest first: the targets' numbers never increase from one row to the next (pairs in either order).
    const n = seen.map((id) => Number(id.slice(2)));
    for (let i = 1; i < n.length; i++) {
      expect(Math.floor((n[i] as number) / 2)).toBeLessThanOrEqual(Math.floor((n[i - 1] as number) / 2));
    }
    expect((await listAuditLog(t.ctx, t.org.slug, { ...filter, page: pages + 1 })).rows).toEqual([]);
  });
});

describe("listPlatformAuditLog", () => {
  it("lets an operator filter every organization's log by organization and action", async () => {
    const t = await tenantWithLog();
    await newTenant("audit-noise");
    const op: { actor: UserActor } = { actor: { ...t.admin.actor, isOperator: true } };
    const log = await listPlatformAuditLog(op, { org: t.org.slug, action: "instance.launched" });
    expect(log.rows.map((r) => r.targetId)).toEqual(["i-2", "i-0"]);
    const orgOnly = await listPlatformAuditLog(op, { org: t.org.slug });
    expect(orgOnly.rows.every((r) => r.org?.slug === t.org.slug)).toBe(true);
    expect(orgOnly.rows.map((r) => r.action)).toContain("organization.created");
    await expect(listPlatformAuditLog(t.ctx)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("filters by actor (email or kind) and by days, both included", async () => {
    const t = await tenantWithLog();
    const op: { actor: UserActor } = { actor: { ...t.admin.actor, isOperator: true } };
    await writeAudit(getDb(), t.admin.actor, {
      orgId: t.org.id,
      action: "instance.launched",
      targetId: "by-admin",
      at: new Date("2030-01-03T23:59:00Z"),
    });
    const byAdmin = await listPlatformAuditLog(op, {
      org: t.org.slug,
      actor: t.admin.actor.email.toUpperCase(),
    });
    expect(byAdmin.rows.map((r) => r.targetId)).toEqual(["by-admin"]);
    const day = await listPlatformAuditLog(op, { org: t.org.slug, from: "2030-01-01", to: "2030-01-01" });
    expect(day.rows.map((r) => r.targetId)).toEqual(["i-2", "i-1", "i-0"]);
    const later = await listPlatformAuditLog(op, { org: t.org.slug, from: "2030-01-02", to: "2030-01-03" });
    expect(later.rows.map((r) => r.targetId)).toEqual(["by-admin"]);
    // A malformed day is no filter, not an error page.
    const junk = await listPlatformAuditLog(op, { org: t.org.slug, from: "yesterday" });
    expect(junk.total).toBe((await listPlatformAuditLog(op, { org: t.org.slug })).total);
  });

  it("exports the filtered log as CSV, oldest first, for operators only", async () => {
    const t = await tenantWithLog();
    const op: { actor: UserActor } = { actor: { ...t.admin.actor, isOperator: true } };
    await expect(exportPlatformAuditCsv(t.ctx)).rejects.toBeInstanceOf(ForbiddenError);
    const { filename, lines } = await exportPlatformAuditCsv(op, {
      org: t.org.slug,
      action: "instance.launched",
    });
    const out: string[] = [];
    for await (const l of lines) out.push(l);
    expect(filename).toBe(`audit_${t.org.slug}.csv`);
    expect(out[0]).toBe("id,at,organization,actor,actor_kind,action,target_type,target_id,data\r\n");
    expect(out.slice(1).map((l) => l.split(",")[7])).toEqual(["i-0", "i-2"]);
    expect(out[1]).toContain(`${t.org.slug},${t.user.email},user,instance.launched,instance,i-0,"{""n"":0}"`);
  });
});

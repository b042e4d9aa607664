import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  createBudget,
  deleteBudget,
  getBudget,
  listBudgetAlerts,
  listBudgets,
  updateBudget,
} from "@/lib/budgets";
import { ForbiddenError, NotFoundError, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { auditLog, budgets } from "@/lib/db/schema";
import { newBillingOrg, testClock } from "@/lib/metering/__tests__/fixtures";
import { createNotification, listNotifications, markNotificationsRead } from "@/lib/notify";

const clock = () => testClock("2030-06-10T12:00:00Z");
const fields = (e: unknown) => Object.keys((e as ValidationError).fieldErrors ?? {});

describe("budget CRUD", () => {
  it("lets admins create, update and delete, with audit rows; members and viewers only read", async () => {
    const org = await newBillingOrg(clock(), "crud");
    const member = await org.as("member");
    const viewer = await org.as("viewer");
    await expect(createBudget(member, org.slug, { name: "X", amountUsd: 10 })).rejects.toBeInstanceOf(
      ForbiddenError,
    );

    const b = await createBudget(org.ctx, org.slug, {
      name: "Research",
      amountUsd: 1000,
      project: "default",
      recipientUserIds: [member.actor.userId],
      recipientEmails: ["Finance@Example.test"],
    });
    expect(b).toMatchObject({
      projectId: org.project.id,
      amountUsd: "1000.00",
      actionAt100: "notify",
      graceMinutes: 60,
      recipientEmails: ["finance@example.test"],
      thresholds: [
        { kind: "actual", pct: 50 },
        { kind: "actual", pct: 80 },
        { kind: "actual", pct: 100 },
        { kind: "forecast", pct: 100 },
      ],
    });
    const [listed] = await listBudgets(viewer, org.slug);
    expect(listed).toMatchObject({ name: "Research", projectName: "Default", status: "ok", usedPct: 0 });
    expect((await getBudget(member, org.slug, b.id)).name).toBe("Research");
    await expect(updateBudget(member, org.slug, b.id, { name: "R", amountUsd: 1 })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    const up = await updateBudget(org.ctx, org.slug, b.id, {
      name: "Research",
      amountUsd: 2000,
      actionAt100: "block_launches",
    });
    expect(up).toMatchObject({ amountUsd: "2000.00", actionAt100: "block_launches", projectId: null });
    await expect(deleteBudget(viewer, org.slug, b.id)).rejects.toBeInstanceOf(ForbiddenError);
    await deleteBudget(org.ctx, org.slug, b.id);
    expect(await listBudgets(org.ctx, org.slug)).toEqual([]);
    const actions = await getDb()
      .select({ a: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.orgId, org.org.id));
    expect(actions.map((r) => r.a)).toEqual(
      expect.arrayContaining(["budget.created", "budget.updated", "budget.deleted"]),
    );
  });

  it("refuses bad input with field errors and writes nothing", async () => {
    const org = await newBillingOrg(clock(), "crud2");
    const stranger = await newBillingOrg(clock(), "crud3");
    const cases: Array<[string, Record<string, unknown>]> = [
      ["name", { name: "", amountUsd: 10 }],
      ["amountUsd", { name: "A", amountUsd: -5 }],
      ["amountUsd", { name: "A", amountUsd: 10.005 }],
      [
        "thresholds",
        {
          name: "A",
          amountUsd: 10,
          thresholds: [
            { kind: "actual", pct: 50 },
            { kind: "actual", pct: 50 },
          ],
        },
      ],
      ["thresholds.0.pct", { name: "A", amountUsd: 10, thresholds: [{ kind: "actual", pct: 0 }] }],
      ["recipientEmails.0", { name: "A", amountUsd: 10, recipientEmails: ["not-an-email"] }],
      ["actionAt100", { name: "A", amountUsd: 10, actionAt100: "explode" }],
      ["graceMinutes", { name: "A", amountUsd: 10, graceMinutes: -1 }],
      ["project", { name: "A", amountUsd: 10, project: "nope" }],
      ["recipientUserIds", { name: "A", amountUsd: 10, recipientUserIds: [stranger.user.id] }],
    ];
    for (const [field, input] of cases) {
      const err = await createBudget(org.ctx, org.slug, input as never).catch((e: unknown) => e);
      expect(err, field).toBeInstanceOf(ValidationError);
      expect(fields(err), field).toEqual([field]);
    }
    expect(await getDb().$count(budgets, eq(budgets.orgId, org.org.id))).toBe(0);
    await createBudget(org.ctx, org.slug, { name: "Team", amountUsd: 10 });
    expect(
      fields(await createBudget(org.ctx, org.slug, { name: "team", amountUsd: 5 }).catch((e) => e)),
    ).toEqual(["name"]);
    const second = await createBudget(org.ctx, org.slug, { name: "Other", amountUsd: 5 });
    expect(
      fields(
        await updateBudget(org.ctx, org.slug, second.id, { name: "TEAM", amountUsd: 5 }).catch((e) => e),
      ),
    ).toEqual(["name"]);
  });

  it("hides another tenant's budgets and notifications", async () => {
    const a = await newBillingOrg(clock(), "ta");
    const b = await newBillingOrg(clock(), "tb");
    const budget = await createBudget(a.ctx, a.slug, { name: "Mine", amountUsd: 10 });
    await expect(getBudget(b.ctx, b.slug, budget.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateBudget(b.ctx, b.slug, budget.id, { name: "X", amountUsd: 1 })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(deleteBudget(b.ctx, b.slug, budget.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(listBudgets(b.ctx, a.slug)).rejects.toBeInstanceOf(NotFoundError);
    await expect(listBudgetAlerts(b.ctx, a.slug)).rejects.toBeInstanceOf(NotFoundError);

    const id = await createNotification(getDb(), {
      orgId: a.org.id,
      kind: "budget.actual",
      severity: "warning",
      title: "t",
      body: "b",
      params: {},
      at: new Date("2030-06-10T12:00:00Z"),
    });
    expect(await markNotificationsRead(b.ctx, b.slug, [id as string])).toBe(0);
    expect((await listNotifications(a.ctx, a.slug, { unreadOnly: true })).map((n) => n.id)).toEqual([id]);
    expect(await markNotificationsRead(a.ctx, a.slug, [id as string])).toBe(1);
    expect(await listNotifications(a.ctx, a.slug, { unreadOnly: true })).toEqual([]);
  });
});

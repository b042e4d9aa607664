import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { checkpoint, type PolicyStop } from "@/lib/core";
import { type Executor, type Tx, withTx } from "@/lib/db/client";
import { instances, memberships, organizations, shutdownWarnings, users } from "@/lib/db/schema";
import { costTexts, createNotification, enqueueEmail, publicBaseUrl, renderEmail } from "@/lib/notify";
import type { EffectivePolicy } from "./policies";
import type { RuleDue } from "./rules";

export type ShutdownWarning = typeof shutdownWarnings.$inferSelect;
export type RunningInstance = {
  id: string;
  orgId: string;
  name: string;
  createdBy: string | null;
};

/** The rule in the reader's words: the stored reason is English (instance timeline), this is translated. */
export function ruleText(
  t: ReturnType<typeof costTexts>,
  rule: string,
  detail: Record<string, string | number>,
) {
  if (rule === "idle") return t.t("ruleIdle", detail);
  if (rule === "max_runtime") return t.t("ruleMaxRuntime", detail);
  return t.t("ruleSchedule", detail);
}

async function creatorOf(exec: Executor, inst: RunningInstance) {
  if (!inst.createdBy) return null;
  const [u] = await exec
    .select({ email: users.email, locale: users.locale })
    .from(users)
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.orgId, inst.orgId)))
    .where(eq(users.id, inst.createdBy));
  return u ?? null;
}

/** When a warning acts: its time, or the end of its snooze when that is later. */
export function warningActsAt(w: ShutdownWarning): Date {
  return w.snoozedUntil && w.snoozedUntil > w.actsAt ? w.snoozedUntil : w.actsAt;
}

/**
 * Record the warning for one rule and due time, and only when this call wrote it (the unique key makes
 * concurrent evaluators agree), email the person who launched the instance and notify them in the console,
 * in the same transaction. The stop will not come before warnedAt + the policy's warning lead.
 */
export async function warnShutdown(
  outer: Tx | undefined,
  input: {
    inst: RunningInstance;
    due: RuleDue;
    detail: Record<string, string | number>;
    policy: EffectivePolicy;
    now: Date;
  },
): Promise<boolean> {
  const { inst, due, policy, now } = input;
  const actsAt = new Date(Math.max(due.dueAt.getTime(), now.getTime() + policy.warningMinutes * 60_000));
  return withTx(outer, async (tx) => {
    const [w] = await tx
      .insert(shutdownWarnings)
      .values({
        orgId: inst.orgId,
        instanceId: inst.id,
        rule: due.rule,
        dueAt: due.dueAt,
        warnedAt: now,
        actsAt,
        reason: due.reason,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!w) return false;
    const [org] = await tx.select().from(organizations).where(eq(organizations.id, inst.orgId));
    const link = `/${org?.slug ?? ""}/instances/${inst.id}`;
    const creator = await creatorOf(tx, inst);
    if (creator) {
      const t = costTexts(creator.locale);
      const vars = {
        instance: inst.name,
        org: org?.name ?? "",
        time: t.time(actsAt),
        rule: ruleText(t, due.rule, input.detail),
      };
      const subject = t.t("shutdownWarningSubject", vars);
      const body = renderEmail({
        title: subject,
        paragraphs: [
          t.t("shutdownWarningBody", vars),
          policy.allowSnooze && policy.maxSnoozes > 0
            ? t.t("shutdownSnoozeHint", { minutes: policy.snoozeMinutesMax })
            : t.t("shutdownNoSnooze"),
        ],
        action: { label: t.t("shutdownOpen"), url: `${publicBaseUrl()}${link}` },
        footer: t.t("shutdownFooter"),
      });
      await enqueueEmail(tx, {
        to: creator.email,
        subject,
        ...body,
        orgId: inst.orgId,
        dedupeKey: `shutdown:${w.id}:warning`,
      });
    }
    const en = costTexts(null);
    const vars = {
      instance: inst.name,
      org: org?.name ?? "",
      time: en.time(actsAt),
      rule: ruleText(en, due.rule, input.detail),
    };
    await createNotification(tx, {
      orgId: inst.orgId,
      userId: inst.createdBy,
      kind: "autoshutdown.warning",
      severity: "warning",
      title: en.t("shutdownWarningSubject", vars),
      body: en.t("shutdownWarningBody", vars),
      params: {
        instanceId: inst.id,
        instance: inst.name,
        rule: due.rule,
        actsAt: actsAt.toISOString(),
        ...input.detail,
      },
      link,
      dedupeKey: `shutdown:${w.id}:warning`,
      at: now,
    });
    return true;
  });
}

/**
 * Carry out a warning that is due: stop the instance through input.stop (provisioning's policy stop, passed
 * in; reason on the timeline, audit row) and mark the warning acted, in one transaction; a warning another
 * worker holds is skipped.
 *
 * Locks in the one order every writer of warnings uses (snooze too): the instance row, then its warnings.
 * The pass decided on rows it read before locking, so the warning is read again under the lock and a snooze
 * committed meanwhile wins: no stop before the snoozed time, and no deadlock against a concurrent snooze.
 */
export async function actOnWarning(
  outer: Tx | undefined,
  input: {
    warning: ShutdownWarning;
    inst: RunningInstance;
    detail: Record<string, string | number>;
    now: Date;
    stop: PolicyStop;
  },
): Promise<boolean> {
  const { warning, inst, now } = input;
  return withTx(outer, async (tx) => {
    const [held] = await tx
      .select({ id: instances.id })
      .from(instances)
      .where(and(eq(instances.id, inst.id), eq(instances.orgId, inst.orgId)))
      .for("update");
    if (!held) return false;
    const [w] = await tx
      .select()
      .from(shutdownWarnings)
      .where(
        and(
          eq(shutdownWarnings.id, warning.id),
          isNull(shutdownWarnings.actedAt),
          isNull(shutdownWarnings.cancelledAt),
        ),
      )
      .for("update", { skipLocked: true });
    if (!w || now < warningActsAt(w)) return false;
    await checkpoint("autoshutdown.act.locked");
    const stopped = await input.stop(tx, now, {
      orgId: inst.orgId,
      instanceId: inst.id,
      reason: w.reason,
      audit: {
        rule: w.rule,
        warningId: w.id,
        dueAt: w.dueAt.toISOString(),
        snoozedUntil: w.snoozedUntil?.toISOString() ?? null,
      },
    });
    await tx
      .update(shutdownWarnings)
      .set(stopped ? { actedAt: now } : { cancelledAt: now })
      .where(eq(shutdownWarnings.id, w.id));
    if (!stopped) return false;
    await checkpoint("autoshutdown.act.stopped");
    const [org] = await tx.select().from(organizations).where(eq(organizations.id, inst.orgId));
    const en = costTexts(null);
    const rule = ruleText(en, w.rule, input.detail);
    await createNotification(tx, {
      orgId: inst.orgId,
      userId: inst.createdBy,
      kind: "autoshutdown.stopped",
      severity: "info",
      title: en.t("shutdownStoppedTitle", { instance: inst.name }),
      body: en.t("shutdownStoppedBody", { instance: inst.name, rule }),
      params: { instanceId: inst.id, instance: inst.name, rule: w.rule, ...input.detail },
      link: `/${org?.slug ?? ""}/instances/${inst.id}`,
      dedupeKey: `shutdown:${w.id}:stopped`,
      at: now,
    });
    return true;
  });
}

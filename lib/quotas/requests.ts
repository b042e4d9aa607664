import "server-only";
import { and, desc, eq, lte, sql } from "drizzle-orm";
import { requireOperator, requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, InvalidStateError, NotFoundError, nowOf, parseInput, ValidationError } from "@/lib/core";
import { inTx, readDb, withTx } from "@/lib/db/client";
import { gpuModels, organizations, quotaRequests, quotas, users } from "@/lib/db/schema";
import { emitWebhookEvents, enqueueEmail } from "@/lib/notify";
import { lockQuota, quotaStanding } from "./admission";
import { quotaDecisionEmail } from "./email";
import { QUOTA_FIELD_MESSAGES, quotaDecisionSchema, quotaRequestSchema } from "./schemas";
import { gpusOfSlices } from "./units";

export type QuotaRequest = typeof quotaRequests.$inferSelect;

/**
 * A member or admin asks for more nominal quota (the total wanted, until when, why). The amount must be more
 * than the current nominal. Audited; operators see it in their queue.
 */
export async function createQuotaRequest(ctx: Ctx, orgSlug: string, raw: unknown): Promise<QuotaRequest> {
  return inTx(ctx, async (c) => {
    const { tx } = c;
    // Authorize before validating: a viewer's or a stranger's bad body is a 403/404, not a field list.
    const { org, userId } = await requireOrgAccess(c, orgSlug, "member");
    const input = parseInput(quotaRequestSchema, raw);
    const now = nowOf(ctx);
    if (input.until && input.until <= now)
      throw ValidationError.field("until", QUOTA_FIELD_MESSAGES.untilInPast);
    const known = await tx.execute<{ m: boolean; r: boolean }>(sql`
      select exists(select 1 from gpu_models where id = ${input.gpuModelId}) as m,
             exists(select 1 from regions where code = ${input.regionCode} and active) as r`);
    const errors: Record<string, string[]> = {};
    if (!known.rows[0]?.m) errors.gpuModelId = [QUOTA_FIELD_MESSAGES.modelRequired];
    if (!known.rows[0]?.r) errors.regionCode = [QUOTA_FIELD_MESSAGES.regionRequired];
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    const s = await quotaStanding(tx, { orgId: org.id, ...input });
    if (input.requestedGpus * 7 <= s.nominal) {
      throw ValidationError.field("requestedGpus", QUOTA_FIELD_MESSAGES.requestAboveNominal);
    }
    const [row] = await tx
      .insert(quotaRequests)
      .values({
        orgId: org.id,
        requestedBy: userId,
        gpuModelId: input.gpuModelId,
        regionCode: input.regionCode,
        requestedGpus: input.requestedGpus,
        until: input.until ?? null,
        reason: input.reason,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error("quota request insert returned nothing");
    await writeAudit(tx, ctx.actor, {
      orgId: org.id,
      action: "quota_request.created",
      targetType: "quota_request",
      targetId: row.id,
      data: { gpuModelId: row.gpuModelId, regionCode: row.regionCode, requestedGpus: row.requestedGpus },
      at: now,
    });
    return row;
  });
}

/** The organization's requests, newest first (viewers too: they see why quota changed). */
export async function listOrgQuotaRequests(ctx: Ctx, orgSlug: string): Promise<QuotaRequest[]> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  return readDb(ctx)
    .select()
    .from(quotaRequests)
    .where(eq(quotaRequests.orgId, org.id))
    .orderBy(desc(quotaRequests.createdAt))
    .limit(200);
}

export type OperatorQuotaRequest = QuotaRequest & {
  orgName: string;
  orgSlug: string;
  requesterEmail: string | null;
  nominalGpus: number;
  inUseGpus: number;
  /** Month-to-date spend of the organization, all projects, in USD (metered ledger). */
  monthSpendUsd: number;
  pastRequests: number;
};

/** Operator: the queue (open first, then decided), with each organization's use, history and spend. */
export async function listQuotaRequests(
  ctx: Ctx,
  filter: { status?: "open" | "decided" } = {},
): Promise<OperatorQuotaRequest[]> {
  requireOperator(ctx);
  const exec = readDb(ctx);
  const now = nowOf(ctx);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const status =
    filter.status === "open"
      ? sql`r.status = 'open'`
      : filter.status === "decided"
        ? sql`r.status <> 'open'`
        : sql`true`;
  const res = await exec.execute<Record<string, unknown>>(sql`
    select r.*, o.name as org_name, o.slug as org_slug, u.email as requester_email,
      (select count(*) from quota_requests p where p.org_id = r.org_id and p.id <> r.id)::int as past_requests,
      coalesce((select sum(amount) from usage_records ur
        where ur.org_id = r.org_id and ur.period_start >= ${monthStart}), 0)::float8 as month_spend
    from quota_requests r join organizations o on o.id = r.org_id left join users u on u.id = r.requested_by
    where ${status}
    order by (r.status = 'open') desc, r.created_at desc limit 200`);
  const out: OperatorQuotaRequest[] = [];
  for (const r of res.rows) {
    const s = await quotaStanding(exec, {
      orgId: String(r.org_id),
      gpuModelId: String(r.gpu_model_id),
      regionCode: String(r.region_code),
    });
    out.push({
      id: String(r.id),
      orgId: String(r.org_id),
      requestedBy: (r.requested_by as string | null) ?? null,
      gpuModelId: String(r.gpu_model_id),
      regionCode: String(r.region_code),
      requestedGpus: Number(r.requested_gpus),
      until: r.until ? new Date(String(r.until)) : null,
      reason: String(r.reason),
      status: r.status as QuotaRequest["status"],
      grantedGpus: r.granted_gpus === null ? null : Number(r.granted_gpus),
      decisionMessage: (r.decision_message as string | null) ?? null,
      decidedBy: (r.decided_by as string | null) ?? null,
      decidedAt: r.decided_at ? new Date(String(r.decided_at)) : null,
      createdAt: new Date(String(r.created_at)),
      orgName: String(r.org_name),
      orgSlug: String(r.org_slug),
      requesterEmail: (r.requester_email as string | null) ?? null,
      nominalGpus: gpusOfSlices(s.nominal),
      inUseGpus: gpusOfSlices(s.footprint),
      monthSpendUsd: Number(r.month_spend),
      pastRequests: Number(r.past_requests),
    });
  }
  return out;
}

/**
 * Operator: approve (all), partly approve (fewer GPUs) or deny an open request, with a message. Approval
 * raises the nominal quota at once (the next scheduler tick admits what waited on it); a request with an end
 * date is a temporary raise that expireQuotaRaises puts back. The requester is emailed in the same
 * transaction (outbox); audited.
 */
export async function decideQuotaRequest(ctx: Ctx, requestId: string, raw: unknown): Promise<QuotaRequest> {
  requireOperator(ctx);
  const input = parseInput(quotaDecisionSchema, raw);
  return withTx(ctx.tx, async (tx) => {
    const now = nowOf(ctx);
    if (!/^[0-9a-f-]{36}$/i.test(requestId)) throw new NotFoundError("Quota request");
    const [req] = await tx.select().from(quotaRequests).where(eq(quotaRequests.id, requestId)).for("update");
    if (!req) throw new NotFoundError("Quota request");
    if (req.status !== "open") {
      throw new InvalidStateError("This request was already decided", {
        from: req.status,
        to: input.decision,
      });
    }
    const k = { orgId: req.orgId, gpuModelId: req.gpuModelId, regionCode: req.regionCode };
    await lockQuota(tx, k);
    const before = await quotaStanding(tx, k);
    let granted: number | null = null;
    let status: QuotaRequest["status"] = "denied";
    if (input.decision === "approve") {
      granted = input.grantedGpus ?? req.requestedGpus;
      if (granted < 1 || granted > req.requestedGpus || granted * 7 <= before.nominal) {
        throw ValidationError.field("grantedGpus", QUOTA_FIELD_MESSAGES.grantedInvalid);
      }
      status = granted < req.requestedGpus ? "partial" : "approved";
      const values = {
        maxGpus: granted,
        borrowingLimitGpus: before.borrowingLimit / 7,
        lendingLimitGpus: before.lendingLimit === null ? null : before.lendingLimit / 7,
        expiresAt: req.until,
        revertToGpus: req.until ? before.nominal / 7 : null,
        updatedAt: now,
      };
      await tx
        .insert(quotas)
        .values({ ...k, ...values })
        .onConflictDoUpdate({ target: [quotas.orgId, quotas.gpuModelId, quotas.regionCode], set: values });
    }
    const [row] = await tx
      .update(quotaRequests)
      .set({
        status,
        grantedGpus: granted,
        decisionMessage: input.message || null,
        decidedBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
        decidedAt: now,
      })
      .where(eq(quotaRequests.id, req.id))
      .returning();
    if (!row) throw new Error("quota request update returned nothing");
    await writeAudit(tx, ctx.actor, {
      orgId: req.orgId,
      action: `quota_request.${status}`,
      targetType: "quota_request",
      targetId: req.id,
      data: {
        gpuModelId: req.gpuModelId,
        regionCode: req.regionCode,
        requestedGpus: req.requestedGpus,
        grantedGpus: granted,
        nominalBefore: gpusOfSlices(before.nominal),
        until: req.until?.toISOString() ?? null,
      },
      at: now,
    });
    const [who] = req.requestedBy
      ? await tx
          .select({
            email: users.email,
            locale: users.locale,
            orgName: organizations.name,
            slug: organizations.slug,
            gpuModelName: gpuModels.name,
          })
          .from(users)
          .innerJoin(organizations, eq(organizations.id, req.orgId))
          // The requester reads the GPU's name ("A100 80GB"), not the catalog's id ("a100-80gb").
          .innerJoin(gpuModels, eq(gpuModels.id, req.gpuModelId))
          .where(eq(users.id, req.requestedBy))
      : [];
    if (who) await enqueueEmail(tx, { to: who.email, ...quotaDecisionEmail(who, row) });
    await emitWebhookEvents(tx, [
      {
        orgId: req.orgId,
        type: "quota_request.decided",
        orderingKey: `quota:${req.gpuModelId}:${req.regionCode}`,
        data: {
          requestId: req.id,
          status,
          gpuModel: req.gpuModelId,
          region: req.regionCode,
          gpusRequested: req.requestedGpus,
          grantedGpus: granted,
          until: req.until?.toISOString() ?? null,
          message: input.message || null,
        },
        at: now,
      },
    ]);
    return row;
  });
}

/** Worker pass: temporary raises whose date has passed go back to the nominal they replaced. Audited. */
export async function expireQuotaRaises(ctx: Ctx): Promise<number> {
  const now = nowOf(ctx);
  return withTx(ctx.tx, async (tx) => {
    const due = await tx
      .select()
      .from(quotas)
      .where(and(lte(quotas.expiresAt, now)))
      .for("update", { skipLocked: true });
    for (const q of due) {
      const back = q.revertToGpus ?? q.maxGpus;
      await tx
        .update(quotas)
        .set({
          maxGpus: back,
          lendingLimitGpus: q.lendingLimitGpus === null ? null : Math.min(q.lendingLimitGpus, back),
          expiresAt: null,
          revertToGpus: null,
          updatedAt: now,
        })
        .where(
          and(
            eq(quotas.orgId, q.orgId),
            eq(quotas.gpuModelId, q.gpuModelId),
            eq(quotas.regionCode, q.regionCode),
          ),
        );
      await writeAudit(tx, ctx.actor, {
        orgId: q.orgId,
        action: "quota.raise_expired",
        targetType: "quota",
        targetId: `${q.gpuModelId}/${q.regionCode}`,
        data: { before: { nominalGpus: q.maxGpus }, after: { nominalGpus: back } },
        at: now,
      });
    }
    return due.length;
  });
}

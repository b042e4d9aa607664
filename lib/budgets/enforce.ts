import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Ctx, PolicyStop } from "@/lib/core";
import { readDb, withTx } from "@/lib/db/client";
import { instances, organizations, projects, serviceReplicas } from "@/lib/db/schema";
import type { Forecast, Month } from "@/lib/metering";
import { costTexts, createNotification } from "@/lib/notify";
import type { Budget } from "./crud";
import { budgetScope, usageLink } from "./email";

/**
 * stop_instances, once the grace period after the 100 % alert has passed and the budget is still exceeded:
 * every running instance in the budget's scope is stopped (one transaction each, so one that changed state
 * meanwhile does not hold up the others) with the reason on its timeline, and the organization is told.
 * Instances started again while the budget stays exceeded are stopped on the next pass.
 */
export async function stopOverBudget(
  ctx: Ctx,
  input: { budget: Budget; forecast: Forecast; month: Month; now: Date; stop: PolicyStop },
): Promise<number> {
  const { budget: b, forecast: f, now } = input;
  const exec = readDb(ctx);
  const running = await exec
    .select({ id: instances.id })
    .from(instances)
    .where(
      and(
        eq(instances.orgId, b.orgId),
        eq(instances.state, "running"),
        b.projectId ? eq(instances.projectId, b.projectId) : undefined,
        // A service's budget stops its replicas only (the autoscaler's replacements are then refused by it).
        b.serviceId
          ? inArray(
              instances.id,
              exec
                .select({ id: serviceReplicas.instanceId })
                .from(serviceReplicas)
                .where(eq(serviceReplicas.serviceId, b.serviceId)),
            )
          : undefined,
      ),
    );
  if (running.length === 0) return 0;
  const en = costTexts(null);
  const amount = Number(b.amountUsd);
  const reason = `budget exceeded: '${b.name}' at ${en.usd(f.actualUsd)} of ${en.usd(amount)} (${input.month.period})`;
  const stopped: string[] = [];
  for (const r of running) {
    const inst = await withTx(ctx.tx, (tx) =>
      input.stop(tx, now, {
        orgId: b.orgId,
        instanceId: r.id,
        reason,
        audit: { budgetId: b.id, rule: "budget" },
      }),
    );
    if (inst) stopped.push(inst.name);
  }
  if (stopped.length === 0) return 0;
  const [org] = await exec.select().from(organizations).where(eq(organizations.id, b.orgId));
  const [project] = b.projectId ? await exec.select().from(projects).where(eq(projects.id, b.projectId)) : [];
  const scope = budgetScope(en, { orgName: org?.name ?? "", projectName: project?.name ?? null });
  await createNotification(exec, {
    orgId: b.orgId,
    kind: "budget.stopped",
    severity: "critical",
    title: en.t("budgetStoppedSubject", { name: b.name, count: stopped.length }),
    body: en.t("budgetStoppedBody", {
      name: b.name,
      spent: en.usd(f.actualUsd),
      amount: en.usd(amount),
      scope,
      list: stopped.join(", "),
    }),
    params: { budgetId: b.id, name: b.name, count: stopped.length, list: stopped.join(", ") },
    link: usageLink(org?.slug ?? ""),
    at: now,
  });
  return stopped.length;
}

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx, UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { deliverOutbox } from "@/lib/notify";
// The notify suite's helpers: a real smtp-server parsed with mailparser, and a database of this file's own
// (delivery reads the whole outbox, so a shared database would let another file's mail in).
import { startTestSmtp, type TestSmtp, useOwnDatabase } from "@/lib/notify/__tests__/helpers";
import { newFleet, newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { createQuotaRequest, decideQuotaRequest } from "@/lib/quotas";

let smtp: TestSmtp;
let dropDb: () => Promise<void>;
const saved = process.env.SMTP_URL;

beforeAll(async () => {
  dropDb = await useOwnDatabase();
  smtp = await startTestSmtp();
  process.env.SMTP_URL = smtp.url;
}, 120_000);

afterAll(async () => {
  await smtp.stop();
  await dropDb();
  if (saved === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = saved;
});

describe("the quota decision email over SMTP", () => {
  it("names the GPU model by its name (not its catalog id), in the requester's language", async () => {
    const fleet = await newFleet([{ gpus: 8, model: "a100-80gb" }]);
    const o = await newOrg("qmail");
    const op: Ctx = { actor: { ...(o.actor as UserActor), isOperator: true } };
    const en = await o.as("member");
    const es = await o.as("member");
    if (es.actor.kind !== "user" || en.actor.kind !== "user") throw new Error("unreachable");
    await getDb().update(users).set({ locale: "es" }).where(eq(users.id, es.actor.userId));
    const ask = { gpuModelId: "a100-80gb", regionCode: fleet.region, reason: "Fine-tuning" };
    const first = await createQuotaRequest(en, o.slug, { ...ask, requestedGpus: 12 });
    await decideQuotaRequest(op, first.id, { decision: "approve", grantedGpus: 10, message: "Ten now" });
    const second = await createQuotaRequest(es, o.slug, { ...ask, requestedGpus: 40 });
    await decideQuotaRequest(op, second.id, { decision: "deny" });

    expect(await deliverOutbox({ now: new Date(Date.now() + 1000) })).toMatchObject({ failed: 0 });
    const to = (email: string) => smtp.received.find((m) => JSON.stringify(m.to).includes(email));
    const partial = to(en.actor.email);
    const denied = to(es.actor.email);
    if (!partial || !denied) throw new Error("a decision email was not received");
    expect(partial.subject).toBe(`Quota partly raised: A100 80GB in ${fleet.region} is now 10 GPUs`);
    expect(partial.text).toContain("Your request for 12 A100 80GB GPUs");
    expect(partial.text).toContain("Ten now");
    expect(partial.html || "").toContain("A100 80GB");
    expect(denied.subject).toContain("A100 80GB");
    expect(denied.subject).toMatch(/^Solicitud de cuota/);
    for (const m of [partial, denied]) expect(`${m.subject} ${m.text}`).not.toContain("a100-80gb");
  }, 60_000);
});

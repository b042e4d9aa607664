import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { outbox } from "@/lib/db/schema";
import { deliverOutbox, enqueueEmail } from "@/lib/notify";
import { startTestSmtp, type TestSmtp, unique, useOwnDatabase } from "@/lib/notify/__tests__/helpers";
import { killAt } from "./kill";

/**
 * The crash test for the outbox deliverer (see crash.test.ts): a child process delivering mail is SIGKILLed at
 * each of its checkpoints and delivery runs again. Delivery reads the whole outbox, so this file has a database
 * of its own (the child inherits it through DATABASE_URL) and a real SMTP server.
 */
let smtp: TestSmtp;
let dropDb: () => Promise<void>;
const savedSmtpUrl = process.env.SMTP_URL;

beforeAll(async () => {
  dropDb = await useOwnDatabase();
  smtp = await startTestSmtp();
  process.env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await smtp.stop();
  await dropDb();
  if (savedSmtpUrl === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtpUrl;
});
beforeEach(async () => {
  smtp.received.length = 0;
  await getDb().delete(outbox);
});

async function enqueue(n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const to = unique("crash");
    const id = await enqueueEmail(getDb(), {
      to,
      subject: `Invitation ${i}`,
      text: "Accept: https://forja.example/invite/tok-secret",
      secret: "tok-secret",
    });
    if (!id) throw new Error("not enqueued");
    ids.push(id);
  }
  return ids;
}

const later = () => new Date(Date.now() + 60_000);

// Every case starts child processes (tsx); on a loaded machine each start takes tens of seconds.
describe("crash test: the outbox deliverer SIGKILLed mid-pass, then run again", { timeout: 300_000 }, () => {
  it("killed at outbox.claimed (before sending): every message sent exactly once after the restart", async () => {
    const ids = await enqueue(3);
    const killed = await killAt("outbox.claimed", "outbox", { now: later().toISOString() });
    expect(killed).toEqual({ paused: "outbox.claimed", signal: "SIGKILL" });
    expect(smtp.received).toHaveLength(0);
    expect(await deliverOutbox({ now: later() })).toEqual({ sent: 3, failed: 0 });
    expect(await deliverOutbox({ now: later() })).toEqual({ sent: 0, failed: 0 });
    expect(smtp.received.map((m) => m.messageId).sort()).toEqual(
      ids.map((id) => `<${id}@forja.localhost>`).sort(),
    );
    const rows = await getDb().select().from(outbox);
    expect(rows.map((r) => [r.status, r.attempts, r.secretSealed])).toEqual(
      rows.map(() => ["sent", 1, null]),
    );
  });

  it("killed at outbox.sent (sent, not recorded): sent again under the same Message-ID, none missing", async () => {
    const ids = await enqueue(2);
    const killed = await killAt("outbox.sent", "outbox", { now: later().toISOString() });
    expect(killed).toEqual({ paused: "outbox.sent", signal: "SIGKILL" });
    expect(smtp.received).toHaveLength(1);
    const first = smtp.received[0]?.messageId;
    expect(await deliverOutbox({ now: later() })).toEqual({ sent: 2, failed: 0 });
    expect(await deliverOutbox({ now: later() })).toEqual({ sent: 0, failed: 0 });
    // The one resend carries the first send's Message-ID, so a receiver drops it: no duplicate reaches a person.
    const byId = new Map<string, number>();
    for (const m of smtp.received) byId.set(m.messageId ?? "", (byId.get(m.messageId ?? "") ?? 0) + 1);
    expect([...byId.keys()].sort()).toEqual(ids.map((id) => `<${id}@forja.localhost>`).sort());
    expect(byId.get(first ?? "")).toBe(2);
    expect(smtp.received).toHaveLength(3);
    // The secret was put back for sending, in both copies.
    expect(smtp.received.every((m) => m.text?.includes("tok-secret"))).toBe(true);
    const rows = await getDb().select().from(outbox).where(eq(outbox.status, "sent"));
    expect(rows).toHaveLength(2);
  });
});

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { outbox } from "@/lib/db/schema";
import {
  deliverOutbox,
  enqueueEmail,
  MAX_ATTEMPTS,
  renderEmail,
  retryDelayMs,
  SECRET_PLACEHOLDER,
  unseal,
} from "@/lib/notify";
import { seal } from "@/lib/notify/sealed";
import { startTestSmtp, type TestSmtp, unique, useOwnDatabase } from "./helpers";

let smtp: TestSmtp;
let dropDb: () => Promise<void>;
const savedSmtpUrl = process.env.SMTP_URL;

beforeAll(async () => {
  dropDb = await useOwnDatabase();
  smtp = await startTestSmtp({ delayMs: 30 });
  process.env.SMTP_URL = smtp.url;
});

afterAll(async () => {
  await smtp.stop();
  await dropDb();
  if (savedSmtpUrl === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtpUrl;
});

beforeEach(async () => {
  process.env.SMTP_URL = smtp.url;
  smtp.setMode("accept");
  smtp.received.length = 0;
  await getDb().delete(outbox);
});

const rowOf = async (id: string) => {
  const [row] = await getDb().select().from(outbox).where(eq(outbox.id, id));
  if (!row) throw new Error(`outbox row ${id} missing`);
  return row;
};
const to = (addr: string) => smtp.received.filter((m) => m.to && JSON.stringify(m.to).includes(addr));
const later = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe("deliverOutbox over a real SMTP server", () => {
  it("sends the text and HTML parts with a stable Message-ID and marks the row sent", async () => {
    const addr = unique("both");
    const body = renderEmail({
      title: "Welcome",
      paragraphs: ["Hello there"],
      action: { label: "Open", url: "https://forja.example/x" },
    });
    const id = await enqueueEmail(getDb(), { to: addr, subject: "Welcome to Forja", ...body });
    if (!id) throw new Error("not enqueued");
    const now = later(new Date(), 1000);

    expect(await deliverOutbox({ now })).toEqual({ sent: 1, failed: 0 });

    const [mail] = to(addr);
    expect(to(addr)).toHaveLength(1);
    expect(mail?.subject).toBe("Welcome to Forja");
    expect(mail?.text).toContain("Hello there");
    expect(mail?.text).toContain("Open: https://forja.example/x");
    expect(mail?.html).toContain('href="https://forja.example/x"');
    expect(mail?.messageId).toBe(`<${id}@forja.localhost>`);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect(row.sentAt?.getTime()).toBe(now.getTime());
  });

  it("retries with backoff through an outage and a rejecting server, then delivers exactly once", async () => {
    const addr = unique("outage");
    const id = (await enqueueEmail(getDb(), { to: addr, subject: "Outage", text: "still here" })) as string;
    const t0 = later(new Date(), 1000);

    await smtp.stop(); // relay down: connection refused
    expect(await deliverOutbox({ now: t0 })).toEqual({ sent: 0, failed: 1 });
    let row = await rowOf(id);
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row.lastError).toBeTruthy();
    expect(row.nextAttemptAt.getTime()).toBe(t0.getTime() + retryDelayMs(1));

    // Not due yet: nothing is attempted before the backoff has passed.
    expect(await deliverOutbox({ now: later(t0, retryDelayMs(1) - 1) })).toEqual({ sent: 0, failed: 0 });

    await smtp.restart();
    smtp.setMode("reject"); // back, but refusing recipients with a temporary error
    const t1 = later(t0, retryDelayMs(1));
    expect(await deliverOutbox({ now: t1 })).toEqual({ sent: 0, failed: 1 });
    row = await rowOf(id);
    expect(row).toMatchObject({ status: "pending", attempts: 2 });
    expect(row.lastError).toMatch(/451|temporarily/i);
    expect(row.nextAttemptAt.getTime()).toBe(t1.getTime() + retryDelayMs(2));

    smtp.setMode("accept");
    const t2 = later(t1, retryDelayMs(2));
    expect(await deliverOutbox({ now: t2 })).toEqual({ sent: 1, failed: 0 });
    expect(await deliverOutbox({ now: later(t2, 24 * 3600_000) })).toEqual({ sent: 0, failed: 0 });
    expect(to(addr)).toHaveLength(1);
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 3, lastError: null });
  });

  it("stops a run at the first unreachable-server error instead of spending an attempt on every message", async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (await enqueueEmail(getDb(), { to: unique("down"), subject: `Down ${i}`, text: "x" })) as string,
      );
    }
    await smtp.stop();
    try {
      expect(await deliverOutbox({ now: later(new Date(), 1000) })).toEqual({ sent: 0, failed: 1 });
    } finally {
      await smtp.restart();
    }
    const attempts = await Promise.all(ids.map(async (id) => (await rowOf(id)).attempts));
    expect(attempts.sort()).toEqual([0, 0, 1]);
  });

  it("marks a message failed after MAX_ATTEMPTS and never tries it again", async () => {
    const addr = unique("max");
    const id = (await enqueueEmail(getDb(), { to: addr, subject: "Never", text: "x" })) as string;
    smtp.setMode("reject");
    let now = later(new Date(), 1000);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await deliverOutbox({ now })).toEqual({ sent: 0, failed: 1 });
      const row = await rowOf(id);
      expect(row.attempts).toBe(attempt);
      expect(row.status).toBe(attempt < MAX_ATTEMPTS ? "pending" : "failed");
      now = later(now, retryDelayMs(attempt));
    }
    smtp.setMode("accept");
    expect(await deliverOutbox({ now: later(now, 7 * 24 * 3600_000) })).toEqual({ sent: 0, failed: 0 });
    expect(await rowOf(id)).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
    expect(to(addr)).toHaveLength(0);
  });

  it("backs off exponentially from 5 seconds up to a 15 minute cap", () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([5000, 10_000, 20_000, 40_000]);
    expect(retryDelayMs(20)).toBe(15 * 60 * 1000);
  });

  it("sends each message once when two deliverers run at the same time", async () => {
    const addrs = Array.from({ length: 8 }, (_, i) => unique(`conc${i}`));
    for (const a of addrs) await enqueueEmail(getDb(), { to: a, subject: "Concurrent", text: a });
    const now = later(new Date(), 1000);

    const [a, b] = await Promise.all([deliverOutbox({ now }), deliverOutbox({ now })]);

    expect((a?.sent ?? 0) + (b?.sent ?? 0)).toBe(addrs.length);
    for (const addr of addrs) expect(to(addr)).toHaveLength(1);
    expect(smtp.received).toHaveLength(addrs.length);
  });
});

describe("enqueueEmail", () => {
  it("enqueues a dedupe key once, and the message is delivered once", async () => {
    const addr = unique("dedupe");
    const key = `test:${addr}`;
    const first = await enqueueEmail(getDb(), { to: addr, subject: "Once", text: "x", dedupeKey: key });
    const second = await enqueueEmail(getDb(), {
      to: addr,
      subject: "Once again",
      text: "y",
      dedupeKey: key,
    });
    expect(first).toBeTruthy();
    expect(second).toBeNull();
    expect(await getDb().$count(outbox, eq(outbox.dedupeKey, key))).toBe(1);
    await deliverOutbox({ now: later(new Date(), 1000) });
    expect(to(addr).map((m) => m.subject)).toEqual(["Once"]);
  });

  it("writes nothing when the caller's transaction rolls back", async () => {
    const addr = unique("rollback");
    await getDb()
      .transaction(async (tx) => {
        await enqueueEmail(tx, { to: addr, subject: "Ghost", text: "x" });
        throw new Error("the change failed");
      })
      .catch(() => undefined);
    expect(await getDb().$count(outbox, eq(outbox.toAddress, addr))).toBe(0);
  });

  // Issue 12 item 8: enqueueEmail chose "logged" from the enqueuing process's environment, so with SMTP_URL
  // on the worker only every email from the web tier was marked logged and never sent.
  it("a message enqueued where SMTP_URL is unset is still sent by a deliverer that has it", async () => {
    const addr = unique("webtier");
    delete process.env.SMTP_URL;
    const id = (await enqueueEmail(getDb(), {
      to: addr,
      subject: "From the web tier",
      text: "hi",
    })) as string;
    expect(await rowOf(id)).toMatchObject({ status: "pending" });
    process.env.SMTP_URL = smtp.url;
    expect(await deliverOutbox({ now: later(new Date(), 1000) })).toEqual({ sent: 1, failed: 0 });
    expect(to(addr)).toHaveLength(1);
  });

  it("a deliverer without SMTP keeps messages as logged, and they are never sent later", async () => {
    const addr = unique("logged");
    delete process.env.SMTP_URL;
    const id = (await enqueueEmail(getDb(), { to: addr, subject: "Dev mail", text: "read me" })) as string;
    expect(await deliverOutbox({ now: later(new Date(), 1000) })).toEqual({ sent: 0, failed: 0, logged: 1 });
    expect(await rowOf(id)).toMatchObject({ status: "logged", attempts: 0, textBody: "read me" });

    process.env.SMTP_URL = smtp.url;
    expect(await deliverOutbox({ now: later(new Date(), 60_000) })).toEqual({ sent: 0, failed: 0 });
    expect(to(addr)).toHaveLength(0);
  });

  // Issue 12 item 7: secrets (tokens in links) are never stored in clear; they are put back at send time.
  it("stores a secret sealed with a placeholder in the bodies, sends it in clear, then forgets it", async () => {
    const addr = unique("secret");
    const token = "tok_0123456789abcdefghijklmnopqrstuvwxyz";
    const body = renderEmail({
      title: "Join",
      paragraphs: ["Click"],
      action: { label: "Accept", url: `https://forja.example/invite/${token}` },
    });
    const id = (await enqueueEmail(getDb(), { to: addr, subject: "Join", ...body, secret: token })) as string;
    const stored = await rowOf(id);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.textBody).toContain(`https://forja.example/invite/${SECRET_PLACEHOLDER}`);
    expect(stored.secretSealed).toBeTruthy();

    expect(await deliverOutbox({ now: later(new Date(), 1000) })).toEqual({ sent: 1, failed: 0 });
    const [mail] = to(addr);
    expect(mail?.text).toContain(`Accept: https://forja.example/invite/${token}`);
    expect(mail?.html).toContain(`href="https://forja.example/invite/${token}"`);
    expect(await rowOf(id)).toMatchObject({ status: "sent", secretSealed: null });
  });

  it("a sealed secret cannot be opened with another key, nor altered unnoticed", async () => {
    const sealed = seal("the-secret-value");
    expect(unseal(sealed)).toBe("the-secret-value");
    const [v, iv, tag, ct] = sealed.split(".");
    const flipped = `${v}.${iv}.${tag}.${(ct ?? "").startsWith("A") ? "B" : "A"}${(ct ?? "").slice(1)}`;
    expect(() => unseal(flipped)).toThrow();
    const saved = process.env.NEXTAUTH_SECRET;
    process.env.NEXTAUTH_SECRET = "another-deployment-secret";
    try {
      expect(() => unseal(sealed)).toThrow();
    } finally {
      process.env.NEXTAUTH_SECRET = saved;
    }
  });
});

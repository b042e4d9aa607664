import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverOutbox } from "@/lib/notify";
// The notify suite's helpers: a real smtp-server parsed with mailparser, and a database of this file's own
// (delivery reads the whole outbox, so a shared database would let another file's mail in).
import { startTestSmtp, type TestSmtp, useOwnDatabase } from "@/lib/notify/__tests__/helpers";
import { acceptInvitation, inviteMember } from "@/lib/tenancy";
import { newTenant, uniqueEmail } from "@/test/factories";
import { newUser, roleIn, tokenFromText } from "./helpers";

let smtp: TestSmtp;
let dropDb: () => Promise<void>;
const saved = { smtp: process.env.SMTP_URL, base: process.env.NEXTAUTH_URL };

beforeAll(async () => {
  dropDb = await useOwnDatabase();
  smtp = await startTestSmtp();
  process.env.SMTP_URL = smtp.url;
  process.env.NEXTAUTH_URL = "https://console.forja.test";
});

afterAll(async () => {
  await smtp.stop();
  await dropDb();
  for (const [key, value] of [
    ["SMTP_URL", saved.smtp],
    ["NEXTAUTH_URL", saved.base],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe("the invitation email over SMTP", () => {
  it("is delivered by deliverOutbox with text and HTML parts whose link accepts the invitation", async () => {
    const { org, ctx, user } = await newTenant("smtp");
    const invitee = await newUser("smtp-invitee");
    const { token } = await inviteMember(ctx, org.slug, { email: invitee.user.email, role: "admin" });
    // A second, unrelated message must not be confused with ours.
    await inviteMember(ctx, org.slug, { email: uniqueEmail("someone-else"), role: "viewer" });

    expect(await deliverOutbox({ now: new Date(Date.now() + 1000) })).toEqual({ sent: 2, failed: 0 });
    const mail = smtp.received.find((m) => JSON.stringify(m.to).includes(invitee.user.email));
    if (!mail) throw new Error("the invitation was not received");
    expect(mail.subject).toBe(`${user.name} invited you to ${org.name} on Forja`);
    const link = `https://console.forja.test/invite/${token}`;
    expect(mail.text).toContain(link);
    expect(mail.html || "").toContain(`href="${link}"`);
    expect(mail.text).toContain("Admin");

    await acceptInvitation(invitee.ctx, tokenFromText(mail.text ?? ""));
    expect(await roleIn(org.id, invitee.user.id)).toBe("admin");
  });
});

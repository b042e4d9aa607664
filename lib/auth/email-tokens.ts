import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { defaultLocale, isLocale } from "@/i18n/config";
import { type Executor, getDb } from "@/lib/db/client";
import { emailTokens } from "@/lib/db/schema";
import { enqueueEmail, publicBaseUrl, renderEmail } from "@/lib/notify";
import { messagesFor } from "@/messages";

export type EmailTokenPurpose = "verify_email" | "reset_password";

const TTL_MS: Record<EmailTokenPurpose, number> = {
  verify_email: 7 * 24 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
};
const PATH: Record<EmailTokenPurpose, string> = {
  verify_email: "/verify-email/",
  reset_password: "/reset-password/",
};

/** Only the sha256 is stored: a database leak hands out no working link. */
export function hashEmailToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * A new single-use link for `purpose`, emailed in the same transaction (lib/notify seals the token until
 * delivery). Older unused links of the same purpose stop working, so only the latest email counts.
 */
export async function sendEmailToken(
  exec: Executor,
  user: { id: string; email: string; locale?: string | null },
  purpose: EmailTokenPurpose,
  now: Date,
  locale?: string,
): Promise<void> {
  await exec
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(eq(emailTokens.userId, user.id), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)),
    );
  const token = randomBytes(32).toString("base64url");
  await exec.insert(emailTokens).values({
    userId: user.id,
    purpose,
    tokenHash: hashEmailToken(token),
    expiresAt: new Date(now.getTime() + TTL_MS[purpose]),
    createdAt: now,
  });
  const lang = isLocale(locale) ? locale : isLocale(user.locale) ? user.locale : defaultLocale;
  const m = messagesFor(lang).AccountEmail;
  const fill = (s: string) => s.replace("{email}", user.email);
  const verify = purpose === "verify_email";
  const { text, html } = renderEmail({
    title: verify ? m.verifyTitle : m.resetTitle,
    paragraphs: [fill(verify ? m.verifyIntro : m.resetIntro)],
    action: {
      label: verify ? m.verifyAction : m.resetAction,
      url: `${publicBaseUrl()}${PATH[purpose]}${token}`,
    },
    footer: verify ? m.verifyFooter : m.resetFooter,
  });
  await enqueueEmail(exec, {
    to: user.email,
    subject: verify ? m.verifySubject : m.resetSubject,
    text,
    html,
    secret: token,
  });
}

/**
 * Use a link: the live token's row, marked used (FOR UPDATE, so two clicks cannot both use it), or null when
 * it is unknown, used, expired or of another purpose.
 */
export async function consumeEmailToken(
  exec: Executor,
  token: string,
  purpose: EmailTokenPurpose,
  now: Date,
): Promise<{ userId: string } | null> {
  if (token.length === 0 || token.length > 200) return null;
  const [row] = await exec
    .select({ id: emailTokens.id, userId: emailTokens.userId })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.tokenHash, hashEmailToken(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
      ),
    )
    .for("update");
  if (!row) return null;
  await exec.update(emailTokens).set({ usedAt: now }).where(eq(emailTokens.id, row.id));
  return { userId: row.userId };
}

/** Whether a link is live (for the page that shows it), without using it. */
export async function emailTokenIsLive(token: string, purpose: EmailTokenPurpose, now: Date) {
  if (token.length === 0 || token.length > 200) return null;
  const [row] = await getDb()
    .select({ userId: emailTokens.userId })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.tokenHash, hashEmailToken(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
      ),
    );
  return row ?? null;
}

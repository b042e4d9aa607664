import "server-only";
import { type Ctx, nowOf, parseInput, UnauthorizedError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { dummyPasswordHash, verifyPassword } from "./password";
import { hitRateLimit, signInKeys, signInLimit } from "./rate-limit";
import { signInSchema } from "./schemas";
import { findUserByEmail } from "./users";

/**
 * Check an email + password sign-in. Rate-limited per client address, per email × address and (slowly) per email before any password work;
 * unknown emails still pay for a hash verification so timing does not reveal which accounts exist.
 */
export async function verifyCredentials(
  ctx: Omit<Ctx, "actor">,
  raw: { email?: unknown; password?: unknown },
  clientIp: string,
) {
  const input = parseInput(signInSchema, raw);
  const now = nowOf(ctx);
  const db = getDb();
  const keys = signInKeys(input.email, clientIp);
  for (const which of ["perIp", "perEmailIp", "perEmail"] as const) {
    await hitRateLimit(db, keys[which], signInLimit(which), now);
  }
  const user = await findUserByEmail(db, input.email);
  if (!user?.passwordHash) {
    await verifyPassword(await dummyPasswordHash(), input.password);
    throw new UnauthorizedError("Email or password is not right");
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    throw new UnauthorizedError("Email or password is not right");
  }
  return user;
}

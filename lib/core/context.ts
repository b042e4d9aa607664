import type { Tx } from "@/lib/db/client";

export type UserActor = {
  kind: "user";
  userId: string;
  email: string;
  isOperator: boolean;
  /** Set when the request was authenticated with an API token (scoped to one organization). */
  tokenOrgId?: string;
  /**
   * The token's id and scope: a "read" token acts at most as a viewer (lib/access caps its role); only an
   * "admin" token of a current operator carries isOperator.
   */
  tokenId?: string;
  tokenScope?: TokenScope;
};
/** admin: a platform operator's token, for /api/v1/admin (only while its user is still an operator). */
export type TokenScope = "read" | "write" | "admin";
export type SystemActor = { kind: "system"; name: string };
export type Actor = UserActor | SystemActor;

/** Every lib function takes one: who acts, an optional open transaction, and the clock. */
export type Ctx = {
  actor: Actor;
  tx?: Tx;
  /** Injected clock; tests fast-forward time through it. */
  now?: () => Date;
};

export function nowOf(ctx: Pick<Ctx, "now">): Date {
  return ctx.now ? ctx.now() : new Date();
}

export function systemCtx(name: string, extra: Partial<Ctx> = {}): Ctx {
  return { actor: { kind: "system", name }, ...extra };
}

export function userIdOf(actor: Actor): string | null {
  return actor.kind === "user" ? actor.userId : null;
}

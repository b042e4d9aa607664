import "server-only";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import type { Ctx, UserActor } from "@/lib/core";
import { authOptions } from "./next-auth";
import { getUserById } from "./users";

/** The signed-in user as an actor (fresh from the database, so role flags are current), or null. */
export async function getActor(): Promise<UserActor | null> {
  const session = await getServerSession(authOptions());
  const id = session?.user?.id;
  if (!id) return null;
  const user = await getUserById(id);
  if (!user) return null;
  return { kind: "user", userId: user.id, email: user.email, isOperator: user.isOperator };
}

/** For pages and actions: the actor context, or a redirect to sign in. */
export async function requireUserCtx(): Promise<Ctx & { actor: UserActor }> {
  const actor = await getActor();
  if (!actor) redirect("/signin");
  return { actor };
}

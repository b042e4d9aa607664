import { redirect } from "next/navigation";
import { listMyOrganizations } from "@/lib/access";
import { getActor } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/** Landing: the first organization's console, or sign-in. */
export default async function Home() {
  const actor = await getActor();
  if (!actor) redirect("/signin");
  const orgs = await listMyOrganizations({ actor });
  if (orgs[0]) redirect(`/${orgs[0].slug}/catalog`);
  if (actor.isOperator) redirect("/admin");
  redirect("/signup");
}

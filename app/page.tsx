import { redirect } from "next/navigation";
import { getActor } from "@/lib/auth/session";
import { listMyOrganizations } from "@/lib/tenancy";

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

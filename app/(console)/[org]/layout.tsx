import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { listMyOrganizations } from "@/lib/access";
import { getOrgPageContext } from "./org-context";

export const dynamic = "force-dynamic";

export default async function OrgLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ org: string }>;
}) {
  const { org: slug } = await params;
  const { ctx, org, role } = await getOrgPageContext(slug);
  const orgs = await listMyOrganizations(ctx);
  return (
    <AppShell
      org={{ slug: org.slug, name: org.name }}
      role={role}
      orgs={orgs.map((o) => ({ slug: o.slug, name: o.name }))}
      user={{ email: ctx.actor.email, isOperator: ctx.actor.isOperator }}
    >
      {children}
    </AppShell>
  );
}

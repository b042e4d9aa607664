import { cookies } from "next/headers";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { BudgetBanner } from "@/components/costs/budget-banner";
import { NotificationsLink } from "@/components/costs/notifications-link";
import { LanguageSwitch } from "./language-switch";
import { NavLinks } from "./nav-links";
import { OrgSwitcher } from "./org-switcher";
import { ThemeToggle } from "./theme-toggle";
import { UserMenu } from "./user-menu";

type Props = {
  org: { slug: string; name: string };
  orgs: Array<{ slug: string; name: string }>;
  role: string;
  user: { email: string; isOperator: boolean };
  children: ReactNode;
};

export async function AppShell({ org, orgs, user, children }: Props) {
  const t = await getTranslations("Nav");
  const theme = (await cookies()).get("forja_theme")?.value === "dark" ? "dark" : "light";
  const items = [
    { href: `/${org.slug}/catalog`, label: t("catalog") },
    { href: `/${org.slug}/instances`, label: t("instances") },
    { href: `/${org.slug}/queues`, label: t("queues") },
    { href: `/${org.slug}/services`, label: t("services") },
    { href: `/${org.slug}/quotas`, label: t("quotas") },
    { href: `/${org.slug}/usage`, label: t("usage") },
    { href: `/${org.slug}/budgets`, label: t("budgets") },
    { href: `/${org.slug}/settings`, label: t("settings") },
    ...(user.isOperator ? [{ href: "/admin", label: t("admin") }] : []),
  ];
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex flex-wrap items-center gap-4 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <Link
          href={`/${org.slug}/catalog`}
          className="text-lg font-bold text-orange-700 dark:text-orange-400"
        >
          Forja
        </Link>
        <OrgSwitcher current={org.slug} orgs={orgs} label={t("switchOrganization")} />
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <NotificationsLink org={org.slug} />
          <LanguageSwitch />
          <ThemeToggle initial={theme} />
          <UserMenu email={user.email} />
        </div>
      </header>
      <div className="flex flex-1 flex-col md:flex-row">
        <nav
          aria-label={t("main")}
          className="border-b border-slate-200 p-2 md:w-52 md:border-b-0 md:border-r dark:border-slate-800"
        >
          <NavLinks items={items} />
        </nav>
        <main id="main" className="flex-1 p-4 md:p-6">
          <BudgetBanner org={org.slug} />
          {children}
        </main>
      </div>
    </div>
  );
}

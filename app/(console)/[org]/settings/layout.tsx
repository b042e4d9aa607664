import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { SettingsNav } from "@/components/settings/settings-nav";
import { getOrgPageContext } from "../org-context";

export default async function SettingsLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ org: string }>;
}) {
  const { org: slug } = await params;
  const { org } = await getOrgPageContext(slug);
  const t = await getTranslations("Settings");
  const tApi = await getTranslations("ApiTokens");
  const tc = await getTranslations("Costs.autoShutdown");
  const tw = await getTranslations("Webhooks");
  const base = `/${org.slug}/settings`;
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <SettingsNav
        label={t("sections")}
        items={[
          { href: base, label: t("general") },
          { href: `${base}/members`, label: t("members") },
          { href: `${base}/projects`, label: t("projects") },
          { href: `${base}/tokens`, label: tApi("nav") },
          { href: `${base}/api`, label: tApi("referenceNav") },
          { href: `${base}/auto-shutdown`, label: tc("tab") },
          { href: `${base}/webhooks`, label: tw("nav") },
        ]}
      />
      {children}
    </div>
  );
}

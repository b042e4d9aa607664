import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ServiceForm } from "@/components/services/service-form";
import { roleAtLeast } from "@/lib/access";
import { getOrgPageContext } from "../../org-context";
import { createServiceAction } from "../actions";
import { serviceFormOptions } from "../form-options";

export default async function NewServicePage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { ctx, role } = await getOrgPageContext(slug);
  const t = await getTranslations("Services");
  const canCreate = roleAtLeast(role, "member");
  const back = (
    <nav aria-label={t("breadcrumb")} className="text-sm">
      <Link href={`/${slug}/services`} className="text-orange-800 underline dark:text-orange-300">
        {t("back")}
      </Link>
    </nav>
  );
  if (!canCreate) {
    return (
      <div className="flex max-w-xl flex-col gap-2">
        {back}
        <h1 className="text-2xl font-semibold">{t("form.title")}</h1>
        <p role="note">{t("form.viewerCannot")}</p>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {back}
      <h1 className="text-2xl font-semibold">{t("form.title")}</h1>
      <p className="max-w-3xl text-sm text-slate-700 dark:text-slate-300">{t("form.intro")}</p>
      <ServiceForm
        org={slug}
        action={createServiceAction.bind(null, slug)}
        options={await serviceFormOptions(ctx, slug)}
      />
    </div>
  );
}

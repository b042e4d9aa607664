import { getTranslations } from "next-intl/server";
import { getOrgPageContext } from "../org-context";

export default async function CatalogPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { org } = await getOrgPageContext(slug);
  const t = await getTranslations("Nav");
  return (
    <div>
      <h1 className="text-2xl font-semibold">{t("catalog")}</h1>
      <p className="text-sm text-slate-600">{org.name}</p>
    </div>
  );
}

import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/admin/page-header";
import { quotaChoices } from "@/lib/quotas";
import { getAdminContext } from "../../../admin-context";
import { AddNodeForm } from "./add-node-form";

export default async function NewNodePage() {
  const ctx = await getAdminContext();
  const [choices, t] = await Promise.all([quotaChoices(ctx), getTranslations("Fleet")]);
  return (
    <>
      <PageHeader title={t("addNodeTitle")} description={t("addNodeDescription")} />
      <AddNodeForm
        regions={choices.regions.map((r) => ({ value: r.code, label: `${r.code} — ${r.name}` }))}
        models={choices.models.map((m) => ({ value: m.id, label: m.name }))}
      />
    </>
  );
}

import { getTranslations } from "next-intl/server";
import { LeaveOrganization } from "@/components/settings/leave-organization";
import { OrganizationNameForm } from "@/components/settings/organization-name-form";
import { ResidencyForm } from "@/components/settings/residency-form";
import { roleAtLeast } from "@/lib/access";
import { getOrganizationSettings } from "@/lib/tenancy";
import { getOrgPageContext } from "../org-context";
import { leaveOrganizationAction, renameOrganizationAction, setDataResidencyAction } from "./actions";

export default async function GeneralSettingsPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { ctx } = await getOrgPageContext(slug);
  const { org, role, jurisdictions } = await getOrganizationSettings(ctx, slug);
  const t = await getTranslations("Settings");
  const canEdit = roleAtLeast(role, "admin");
  return (
    <div className="flex flex-col gap-8">
      {canEdit ? null : (
        <p role="note" className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
          {t("readOnly")}
        </p>
      )}
      <section aria-labelledby="org-heading" className="flex flex-col gap-3">
        <h2 id="org-heading" className="text-lg font-semibold">
          {t("organization")}
        </h2>
        {canEdit ? (
          <OrganizationNameForm name={org.name} action={renameOrganizationAction.bind(null, org.slug)} />
        ) : (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-medium">{t("name")}</dt>
            <dd>{org.name}</dd>
          </dl>
        )}
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("slugNote", { slug: org.slug })}</p>
      </section>
      <section aria-labelledby="residency-heading" className="flex flex-col gap-3">
        <h2 id="residency-heading" className="text-lg font-semibold">
          {t("residency")}
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("residencyIntro")}</p>
        {jurisdictions.length === 0 ? (
          <p className="text-sm">{t("noJurisdictions")}</p>
        ) : canEdit ? (
          <ResidencyForm
            jurisdictions={jurisdictions}
            allowed={org.allowedJurisdictions}
            action={setDataResidencyAction.bind(null, org.slug)}
          />
        ) : (
          <p className="text-sm">
            {org.allowedJurisdictions.length
              ? t("residencyCurrent", { list: org.allowedJurisdictions.join(", ") })
              : t("residencyNone")}
          </p>
        )}
      </section>
      <section aria-labelledby="leave-heading" className="flex flex-col gap-3">
        <h2 id="leave-heading" className="text-lg font-semibold">
          {t("leaveHeading")}
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("leaveIntro", { org: org.name })}</p>
        <div>
          <LeaveOrganization orgName={org.name} action={leaveOrganizationAction.bind(null, org.slug)} />
        </div>
      </section>
    </div>
  );
}

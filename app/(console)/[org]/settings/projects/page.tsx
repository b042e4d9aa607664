import { getFormatter, getTranslations } from "next-intl/server";
import { EditProject } from "@/components/settings/edit-project";
import { ProjectForm } from "@/components/settings/project-form";
import { roleAtLeast } from "@/lib/access";
import { listProjects } from "@/lib/tenancy";
import { getOrgPageContext } from "../../org-context";
import { createProjectAction, updateProjectAction } from "./actions";

export default async function ProjectsPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { ctx, org, role } = await getOrgPageContext(slug);
  const [projects, t, te, format] = await Promise.all([
    listProjects(ctx, slug),
    getTranslations("Projects"),
    getTranslations("Environments"),
    getFormatter(),
  ]);
  const canEdit = roleAtLeast(role, "admin");
  const now = new Date();
  return (
    <div className="flex flex-col gap-8">
      {canEdit ? null : (
        <p role="note" className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
          {t("readOnly")}
        </p>
      )}
      <section aria-labelledby="projects-heading" className="flex flex-col gap-3">
        <h2 id="projects-heading" className="text-lg font-semibold">
          {t("heading")}
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("intro")}</p>
        {projects.length === 0 ? (
          <p className="text-sm">{canEdit ? t("emptyAdmin") : t("empty")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-slate-200 dark:border-slate-700">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    {t("name")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("slug")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("environment")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("created")}
                  </th>
                  {canEdit ? (
                    <th scope="col" className="py-2">
                      {t("actions")}
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {projects.map((p) => (
                  <tr key={p.id} className="border-b border-slate-100 dark:border-slate-800">
                    <th scope="row" className="py-2 pr-4 font-medium">
                      {p.name}
                    </th>
                    <td className="py-2 pr-4 font-mono text-xs">{p.slug}</td>
                    <td className="py-2 pr-4">{te(p.environment)}</td>
                    <td className="py-2 pr-4">
                      <time
                        dateTime={p.createdAt.toISOString()}
                        title={format.dateTime(p.createdAt, { dateStyle: "long", timeStyle: "short" })}
                      >
                        {format.relativeTime(p.createdAt, now)}
                      </time>
                    </td>
                    {canEdit ? (
                      <td className="py-2">
                        <EditProject
                          project={{ id: p.id, name: p.name, environment: p.environment }}
                          action={updateProjectAction.bind(null, org.slug)}
                        />
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {canEdit ? (
        <section aria-labelledby="new-project-heading" className="flex flex-col gap-3">
          <h2 id="new-project-heading" className="text-lg font-semibold">
            {t("newHeading")}
          </h2>
          <ProjectForm action={createProjectAction.bind(null, org.slug)} />
        </section>
      ) : null}
    </div>
  );
}

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { FilterForm } from "@/components/ui/filter-form";
import type { InstanceStateName } from "@/lib/provisioning";

export type InstanceFilterValues = { project?: string; state?: string; region?: string };

const SELECT =
  "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900";

/**
 * Filters live in the URL (shareable, the back button works). Rendered on the server inside FilterForm: a
 * plain GET form before hydration, applied at once through the router after it.
 */
export function InstanceFilters({
  values,
  projects,
  regions,
  states,
}: {
  values: InstanceFilterValues;
  projects: Array<{ slug: string; name: string }>;
  regions: Array<{ code: string; name: string }>;
  states: readonly InstanceStateName[];
}) {
  const t = useTranslations("Instances");
  const active = Boolean(values.project || values.state || values.region);
  return (
    <FilterForm
      label={t("filters.label")}
      clearLabel={active ? t("filters.clear") : undefined}
      className="flex flex-wrap items-end gap-3"
    >
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t("filters.project")}
        <select name="project" defaultValue={values.project ?? ""} className={SELECT}>
          <option value="">{t("filters.all")}</option>
          {projects.map((p) => (
            <option key={p.slug} value={p.slug}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t("filters.state")}
        <select name="state" defaultValue={values.state ?? ""} className={SELECT}>
          <option value="">{t("filters.all")}</option>
          {states.map((s) => (
            <option key={s} value={s}>
              {t(`state.${s}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t("filters.region")}
        <select name="region" defaultValue={values.region ?? ""} className={SELECT}>
          <option value="">{t("filters.all")}</option>
          {regions.map((r) => (
            <option key={r.code} value={r.code}>
              {r.name} ({r.code})
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" variant="secondary">
        {t("filters.apply")}
      </Button>
    </FilterForm>
  );
}

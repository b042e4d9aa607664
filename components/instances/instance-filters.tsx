"use client";

import { usePathname, useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import type { FormEvent } from "react";
import { Button } from "@/components/ui/button";
import type { InstanceStateName } from "@/lib/provisioning";

export type InstanceFilterValues = { project?: string; state?: string; region?: string };

const SELECT =
  "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900";

/**
 * Filters live in the URL (shareable, the back button works). A plain GET form, so it works before hydration;
 * once hydrated a change applies at once through the router instead of a full reload.
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
  const router = useRouter();
  const pathname = usePathname();
  function apply(form: HTMLFormElement) {
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === "string" && v) params.set(k, v);
    const qs = params.toString();
    router.push(qs ? `${pathname}?${qs}` : pathname);
  }
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    apply(e.currentTarget);
  }
  const active = Boolean(values.project || values.state || values.region);
  return (
    <form
      method="get"
      onSubmit={onSubmit}
      onChange={(e) => apply(e.currentTarget)}
      aria-label={t("filters.label")}
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
      {active ? (
        <Button type="button" variant="ghost" onClick={() => router.push(pathname)}>
          {t("filters.clear")}
        </Button>
      ) : null}
    </form>
  );
}

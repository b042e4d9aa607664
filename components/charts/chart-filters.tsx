import Form from "next/form";
import { useTranslations } from "next-intl";

type Option = { value: string; label: string };
type Select = { name: string; label: string; value: string | undefined; options: Option[] };

type Props = {
  action: string;
  legend: string;
  selects: Select[];
  /** Parameters the form does not edit but must keep (the range picked with the range selector). */
  keep: Record<string, string>;
};

/**
 * Region / GPU model filters as a GET form: the URL carries them, so a filtered view can be shared, reloaded
 * and reached with the back button; it works before (and without) hydration.
 */
export function ChartFilters({ action, legend, selects, keep }: Props) {
  const t = useTranslations("Charts");
  return (
    <Form action={action} className="flex flex-wrap items-end gap-3">
      <fieldset className="contents">
        <legend className="sr-only">{legend}</legend>
        {selects.map((s) => (
          <label key={s.name} className="flex flex-col gap-1 text-sm">
            <span className="font-medium">{s.label}</span>
            <select
              name={s.name}
              defaultValue={s.value ?? ""}
              className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
            >
              <option value="">{t("filters.any")}</option>
              {s.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
        ))}
      </fieldset>
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        className="rounded-md bg-orange-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-orange-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600"
      >
        {t("filters.apply")}
      </button>
    </Form>
  );
}

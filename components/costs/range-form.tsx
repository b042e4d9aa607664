import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { Field } from "@/components/ui/field";

type Values = { from: string; to: string; group: string; month: string };

type Props = {
  action: string;
  values: Values;
  groups: Array<{ value: string; label: string }>;
  /** Already translated messages per field. */
  errors: Partial<Record<"from" | "to", string>>;
  presets: Array<{ label: string; from: string; to: string }>;
};

/**
 * The explorer's range and grouping as a plain GET form: submitting rewrites the URL (shareable, back button
 * works) and needs no script. The energy month rides along unchanged.
 */
export async function RangeForm({ action, values, groups, errors, presets }: Props) {
  const t = await getTranslations("Costs.usage.range");
  const href = (p: { from: string; to: string }) =>
    `${action}?${new URLSearchParams({ ...values, from: p.from, to: p.to }).toString()}`;
  return (
    <form
      method="get"
      action={action}
      aria-label={t("label")}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <input type="hidden" name="month" value={values.month} />
      <div className="flex flex-wrap items-start gap-4">
        <Field
          type="date"
          name="from"
          label={t("from")}
          defaultValue={values.from}
          errors={errors.from ? [errors.from] : undefined}
        />
        <Field
          type="date"
          name="to"
          label={t("to")}
          defaultValue={values.to}
          errors={errors.to ? [errors.to] : undefined}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="field-group" className="text-sm font-medium">
            {t("group")}
          </label>
          <select
            id="field-group"
            name="group"
            defaultValue={values.group}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
          >
            {groups.map((g) => (
              <option key={g.value} value={g.value}>
                {g.label}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          className="mt-6 rounded-md bg-orange-700 px-3 py-2 text-sm font-medium text-white hover:bg-orange-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600"
        >
          {t("apply")}
        </button>
      </div>
      <nav aria-label={t("presets")} className="flex flex-wrap gap-3 text-sm">
        {presets.map((p) => (
          <Link key={p.label} href={href(p)} className="text-orange-800 underline dark:text-orange-300">
            {p.label}
          </Link>
        ))}
      </nav>
    </form>
  );
}

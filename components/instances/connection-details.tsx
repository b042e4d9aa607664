import { useTranslations } from "next-intl";
import { CopyButton } from "@/components/ui/copy-button";

const KNOWN = ["url", "token", "endpoint", "ssh"] as const;

/** How to reach the workload: the notebook's URL and token, or the container's endpoint and SSH command. */
export function ConnectionDetails({ connection }: { connection: Record<string, string> | null }) {
  const t = useTranslations("Instances.connection");
  const entries = connection
    ? Object.entries(connection).sort(
        ([a], [b]) => KNOWN.indexOf(a as (typeof KNOWN)[number]) - KNOWN.indexOf(b as (typeof KNOWN)[number]),
      )
    : [];
  const labelOf = (key: string) => ((KNOWN as readonly string[]).includes(key) ? t(`field.${key}`) : key);
  return (
    <section
      aria-labelledby="connection-heading"
      className="rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id="connection-heading" className="text-lg font-semibold">
        {t("title")}
      </h2>
      {entries.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("notRunning")}</p>
      ) : (
        <dl className="mt-2 grid grid-cols-[max-content_1fr] items-center gap-x-4 gap-y-2 text-sm">
          {entries.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="font-medium">{labelOf(key)}</dt>
              <dd className="flex flex-wrap items-center gap-2">
                {key === "url" ? (
                  <a
                    href={value}
                    target="_blank"
                    rel="noreferrer"
                    className="break-all text-orange-800 underline dark:text-orange-300"
                  >
                    {value}
                  </a>
                ) : (
                  <code className="break-all rounded bg-slate-100 px-1.5 py-0.5 dark:bg-slate-800">
                    {value}
                  </code>
                )}
                <CopyButton value={value} label={t("copy", { what: labelOf(key) })} compact />
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

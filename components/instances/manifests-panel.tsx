import { useTranslations } from "next-intl";

/**
 * The Kubernetes objects Forja applies for this instance, for review (admins and owners only; the page decides):
 * the YAML as `kubectl apply -f` would read it, and a download of the same file. The notebook token's Secret
 * carries its key with the value redacted.
 */
export function ManifestsPanel({ org, id, yaml }: { org: string; id: string; yaml: string }) {
  const t = useTranslations("Instances.manifests");
  return (
    <section
      aria-labelledby="manifests-heading"
      className="rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="manifests-heading" className="text-lg font-semibold">
          {t("title")}
        </h2>
        <a
          href={`/api/v1/orgs/${encodeURIComponent(org)}/instances/${encodeURIComponent(id)}/manifests?format=yaml`}
          download
          className="rounded-md border border-slate-300 px-2 py-1 text-sm font-medium text-orange-800 underline dark:border-slate-700 dark:text-orange-300"
        >
          {t("download")}
        </a>
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("intro")}</p>
      <textarea
        readOnly
        value={yaml}
        aria-label={t("yaml")}
        rows={18}
        spellCheck={false}
        className="mt-2 w-full rounded bg-slate-950 p-3 font-mono text-xs text-slate-100"
      />
    </section>
  );
}

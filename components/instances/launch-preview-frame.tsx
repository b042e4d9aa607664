import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

/** The launch preview's section: the same while its code loads (PreviewPending) and once it shows figures. */
export function PreviewFrame({ busy, children }: { busy: boolean; children: ReactNode }) {
  const t = useTranslations("Instances.launch.preview");
  return (
    <section
      aria-labelledby="preview-heading"
      aria-busy={busy}
      className="rounded-lg border border-slate-200 bg-slate-50 p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="preview-heading" className="text-lg font-semibold">
        {t("title")}
      </h2>
      <div role="status" aria-live="polite" className="mt-2 text-sm">
        {children}
      </div>
    </section>
  );
}

/** Before the preview's code and first answer arrive: what it will say until then. */
export function PreviewPending({ instanceType, region }: { instanceType: string; region: string }) {
  const t = useTranslations("Instances.launch.preview");
  const enabled = Boolean(instanceType && region);
  return (
    <PreviewFrame busy={enabled}>
      <p>{enabled ? t("loading") : t("choose")}</p>
    </PreviewFrame>
  );
}

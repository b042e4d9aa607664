"use client";

import { useTranslations } from "next-intl";
import { lazyClient } from "@/components/ui/lazy-client";

function Loading() {
  const t = useTranslations("Common");
  return (
    <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
      {t("loading")}
    </p>
  );
}

/**
 * The service form on the launch page, fetched once "Service" is the chosen kind: the launch page imports both
 * forms, and a page ships every client component it imports, so the instance form alone is first-load JS
 * (issue 13's 150 kB budget). /services/new imports the form itself.
 */
export const LazyServiceForm = lazyClient(() => import("./service-form").then((m) => m.ServiceForm), Loading);

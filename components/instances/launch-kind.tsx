"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { RadioGroup } from "@/components/ui/radio-group";

/** What the launch form launches: an instance (notebook, container) or a service (its own form and action). */
export type LaunchKind = "notebook" | "container" | "service";

/**
 * The launch form's kind choice, shared by the instance form and the service form it switches to. Choosing
 * the other family rewrites ?kind= (the page renders that family's form); inside a family it is local state.
 */
export function LaunchKindField({
  value,
  onChange,
  errors,
}: {
  value: LaunchKind;
  onChange?: (v: "notebook" | "container") => void;
  errors?: string[];
}) {
  const t = useTranslations("Instances");
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  // Shown checked at once while the page switches to the other family's form.
  const [leaving, setLeaving] = useState<{ from: LaunchKind; to: LaunchKind } | null>(null);
  const choose = (v: LaunchKind) => {
    if (v !== "service" && value !== "service" && onChange) return onChange(v);
    setLeaving({ from: value, to: v });
    const q = new URLSearchParams(search?.toString() ?? "");
    q.set("kind", v);
    router.replace(`${pathname}?${q}`, { scroll: false });
  };
  return (
    <RadioGroup
      name="kind"
      legend={t("launch.kind")}
      value={leaving?.from === value ? leaving.to : value}
      onChange={choose}
      errors={errors}
      options={[
        { value: "notebook", label: t("kind.notebook"), hint: t("launch.kindNotebookHint") },
        { value: "container", label: t("kind.container"), hint: t("launch.kindContainerHint") },
        { value: "service", label: t("kind.service"), hint: t("launch.kindServiceHint") },
      ]}
    />
  );
}

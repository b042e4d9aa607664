import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import type { InstanceAction } from "@/lib/provisioning";

/** Stop, terminate and cancel lose work or a place in the queue, so they ask first; start does not. */
export const CONFIRMS: Record<InstanceAction, boolean> = {
  stop: true,
  terminate: true,
  cancel: true,
  start: false,
};

export function actionVariant(a: InstanceAction): "primary" | "danger" | "secondary" {
  return a === "start" ? "primary" : a === "terminate" ? "danger" : "secondary";
}

/**
 * The lifecycle buttons as the server renders them, disabled, until InstanceActions' code has loaded (the
 * instance page's live part arrives after hydration): same labels and places, nothing to press yet.
 */
export function PendingActions({ actions }: { actions: InstanceAction[] }) {
  const t = useTranslations("Instances");
  if (actions.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {actions.map((a) => (
          <Button
            key={a}
            type="button"
            variant={actionVariant(a)}
            aria-haspopup={CONFIRMS[a] ? "dialog" : undefined}
            disabled
          >
            {t(`actions.${a}`)}
          </Button>
        ))}
      </div>
      <div className="min-h-5" />
    </div>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { Field } from "@/components/ui/field";
import { activateNodeAction, drainNodeAction, failNodeAction } from "../../actions";

/** Drain, mark failed or bring back a node, each behind a confirmation that asks for the reason. */
export function NodeActions({ nodeId, name, status }: { nodeId: string; name: string; status: string }) {
  const t = useTranslations("Fleet");
  const reason = (id: string) => (errors: Record<string, string[]> | undefined) => (
    <Field
      id={id}
      name="reason"
      label={t("reason")}
      hint={t("reasonHint")}
      maxLength={500}
      errors={errors?.reason}
    />
  );
  return (
    <div className="flex flex-wrap gap-2">
      {status === "active" && (
        <ConfirmAction
          trigger={t("drain")}
          title={t("drainTitle", { name })}
          description={t("drainBody")}
          confirmLabel={t("drainConfirm")}
          action={drainNodeAction}
          fields={{ nodeId }}
        >
          {reason("drain-reason")}
        </ConfirmAction>
      )}
      {status !== "down" && (
        <ConfirmAction
          trigger={t("fail")}
          title={t("failTitle", { name })}
          description={t("failBody")}
          confirmLabel={t("failConfirm")}
          action={failNodeAction}
          fields={{ nodeId }}
        >
          {reason("fail-reason")}
        </ConfirmAction>
      )}
      {status !== "active" && (
        <ConfirmAction
          trigger={t("activate")}
          title={t("activateTitle", { name })}
          description={t("activateBody")}
          confirmLabel={t("activateConfirm")}
          action={activateNodeAction}
          fields={{ nodeId }}
          variant="primary"
        >
          {reason("activate-reason")}
        </ConfirmAction>
      )}
    </div>
  );
}

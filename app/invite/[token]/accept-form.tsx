"use client";

import { useTranslations } from "next-intl";
import { type FormAction, useActionForm } from "@/components/settings/use-action-form";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";

/** Posts to the accept action (works without JavaScript); on success the action redirects into the org. */
export function AcceptForm({ action }: { action: FormAction }) {
  const t = useTranslations("Invite");
  const { formAction, onSubmit, pending, error } = useActionForm(action);
  return (
    <form action={formAction} onSubmit={onSubmit} className="flex flex-col gap-3">
      <FormMessage message={error} />
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? t("joining") : t("accept")}
      </Button>
    </form>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";

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

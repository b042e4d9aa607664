"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { type FormAction, useActionForm } from "@/components/settings/use-action-form";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";

export function AcceptForm({ action }: { action: FormAction<{ orgSlug: string; email: string }> }) {
  const t = useTranslations("Invite");
  const router = useRouter();
  const { state, onSubmit, pending, error } = useActionForm(action);
  useEffect(() => {
    if (state?.ok && state.data) router.push(`/${state.data.orgSlug}/catalog`);
  }, [state, router]);
  const busy = pending || Boolean(state?.ok);
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3">
      <FormMessage message={error} />
      <Button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? t("joining") : t("accept")}
      </Button>
    </form>
  );
}

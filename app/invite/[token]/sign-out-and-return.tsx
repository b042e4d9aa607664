"use client";

import { signOut } from "next-auth/react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";

export function SignOutAndReturn({ callbackUrl }: { callbackUrl: string }) {
  const t = useTranslations("Invite");
  return (
    <Button type="button" variant="secondary" onClick={() => void signOut({ callbackUrl })}>
      {t("switchAccount")}
    </Button>
  );
}

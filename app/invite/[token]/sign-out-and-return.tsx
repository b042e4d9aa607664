"use client";

import { useTranslations } from "next-intl";
import { signOutTo } from "@/components/ui/auth-client";
import { Button } from "@/components/ui/button";

export function SignOutAndReturn({ callbackUrl }: { callbackUrl: string }) {
  const t = useTranslations("Invite");
  return (
    <Button type="button" variant="secondary" onClick={() => void signOutTo(callbackUrl)}>
      {t("switchAccount")}
    </Button>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { signOutTo } from "@/components/ui/auth-client";

export function UserMenu({ email }: { email: string }) {
  const t = useTranslations("Common");
  return (
    <div className="flex items-center gap-3 text-sm">
      <span className="text-slate-600 dark:text-slate-400">{email}</span>
      <button
        type="button"
        onClick={() => void signOutTo("/signin")}
        className="rounded-md px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800"
      >
        {t("signOut")}
      </button>
    </div>
  );
}

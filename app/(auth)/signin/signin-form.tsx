"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";

/** lib/auth/next-auth.ts reports a refused sign-in as a code ("rate_limited:<seconds>" for the rate limit). */
function signInErrorText(code: string, t: ReturnType<typeof useTranslations<"Auth">>): string {
  const limited = /^rate_limited:(\d+)$/.exec(code);
  if (limited) return t("rateLimited", { seconds: Number(limited[1]) });
  if (code === "validation") return t("signInIncomplete");
  if (code === "unauthorized" || code === "CredentialsSignin") return t("badCredentials");
  return t("signInUnavailable");
}

export function SignInForm({ callbackUrl, sso }: { callbackUrl: string; sso: { name: string } | null }) {
  const t = useTranslations("Auth");
  const router = useRouter();
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const fd = new FormData(e.currentTarget);
    setPending(true);
    setError(undefined);
    const res = await signIn("credentials", {
      email: String(fd.get("email") ?? ""),
      password: String(fd.get("password") ?? ""),
      redirect: false,
    });
    setPending(false);
    if (!res || res.error) {
      setError(signInErrorText(res?.error ?? "unavailable", t));
      return;
    }
    router.push(callbackUrl);
    router.refresh();
  }

  return (
    <div className="flex flex-col gap-6">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <Field name="email" type="email" label={t("email")} autoComplete="email" required />
        <Field
          name="password"
          type="password"
          label={t("password")}
          autoComplete="current-password"
          required
        />
        <FormMessage message={error} />
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? t("signingIn") : t("signIn")}
        </Button>
      </form>
      {sso ? (
        <Button type="button" variant="secondary" onClick={() => void signIn("oidc", { callbackUrl })}>
          {t("signInWith", { provider: sso.name })}
        </Button>
      ) : null}
    </div>
  );
}

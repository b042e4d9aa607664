"use server";

import { cookies } from "next/headers";
import { isLocale, LOCALE_COOKIE } from "@/i18n/config";

// The root layout (app/layout.tsx) reads the same cookie name.
const THEME_COOKIE = "forja_theme";
const ONE_YEAR = 60 * 60 * 24 * 365;

/** Remember the chosen language; the next render (router.refresh) picks it up in i18n/request.ts. */
export async function setLocaleAction(locale: string): Promise<void> {
  if (!isLocale(locale)) return;
  (await cookies()).set(LOCALE_COOKIE, locale, { path: "/", maxAge: ONE_YEAR, sameSite: "lax" });
}

/** Remember light or dark; the root layout puts the class on <html> from this cookie. */
export async function setThemeAction(theme: string): Promise<void> {
  if (theme !== "light" && theme !== "dark") return;
  (await cookies()).set(THEME_COOKIE, theme, { path: "/", maxAge: ONE_YEAR, sameSite: "lax" });
}

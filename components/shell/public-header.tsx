import { cookies } from "next/headers";
import Link from "next/link";
import { LanguageSwitch } from "./language-switch";
import { ThemeToggle } from "./theme-toggle";

/** The header of pages outside the console (sign-in, sign-up, invitations): brand, language and theme. */
export async function PublicHeader() {
  const theme = (await cookies()).get("forja_theme")?.value === "dark" ? "dark" : "light";
  return (
    <header className="flex flex-wrap items-center gap-4 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
      <Link href="/" className="text-lg font-bold text-orange-700 dark:text-orange-400">
        Forja
      </Link>
      <div className="ml-auto flex items-center gap-2">
        <LanguageSwitch />
        <ThemeToggle initial={theme} />
      </div>
    </header>
  );
}

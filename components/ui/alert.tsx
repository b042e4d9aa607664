import type { ReactNode } from "react";

const TONES = {
  /** A line of text under what failed. */
  inline: "text-sm text-red-700 dark:text-red-400",
  /** A framed box, for a failure that concerns the whole page or form. */
  box: "rounded-md border border-red-300 p-3 text-sm text-red-800 dark:border-red-800 dark:text-red-300",
} as const;

/** Something went wrong: announced at once to screen readers (role="alert"), in words, not by colour alone. */
export function Alert({
  id,
  tone = "inline",
  children,
}: {
  id?: string;
  tone?: keyof typeof TONES;
  children: ReactNode;
}) {
  return (
    <p id={id} role="alert" className={TONES[tone]}>
      {children}
    </p>
  );
}

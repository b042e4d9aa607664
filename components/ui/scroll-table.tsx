import type { ReactNode } from "react";

/**
 * A wide table in a box that scrolls sideways when its columns do not fit, named by the table's caption and
 * focusable so a keyboard can scroll it (axe: scrollable-region-focusable).
 */
export function ScrollTable({
  caption,
  captionId,
  children,
}: {
  caption: string;
  captionId: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={captionId}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a sideways-scrolling region must be reachable by keyboard
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-orange-600 dark:border-slate-800"
    >
      <table className="w-full border-collapse text-sm tabular-nums">
        <caption id={captionId} className="sr-only">
          {caption}
        </caption>
        {children}
      </table>
    </section>
  );
}

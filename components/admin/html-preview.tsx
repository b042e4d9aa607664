"use client";

import { useState } from "react";

type Props = { html: string; frameTitle: string; showLabel: string; hideLabel: string };

/**
 * The email's HTML, rendered only when asked: remote images are not fetched just by opening the message, and
 * the frame is sandboxed with no permissions (no scripts, forms, navigation or access to the console's origin).
 */
export function HtmlPreview({ html, frameTitle, showLabel, hideLabel }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="mb-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        {open ? hideLabel : showLabel}
      </button>
      {open && (
        <iframe
          sandbox=""
          srcDoc={html}
          title={frameTitle}
          className="h-[32rem] w-full max-w-3xl rounded-md border border-slate-200 bg-white dark:border-slate-800"
        />
      )}
    </div>
  );
}

"use client";

import { useFormatter } from "next-intl";

/**
 * "5 minutes ago" with the exact time on hover. `now` comes from the server with the data, so the first
 * render and hydration agree and a skewed browser clock does not show "in 3 minutes".
 */
export function RelativeTime({ date, now }: { date: string; now: string }) {
  const format = useFormatter();
  const d = new Date(date);
  return (
    <time
      dateTime={date}
      title={format.dateTime(d, { dateStyle: "medium", timeStyle: "long" })}
      className="whitespace-nowrap"
    >
      {format.relativeTime(d, new Date(now))}
    </time>
  );
}

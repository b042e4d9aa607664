"use client";

import { useFormatter } from "next-intl";

/**
 * "5 minutes ago" with the exact date and time on hover and, via dateTime, for assistive tech. `now` comes
 * from the server with the data (getNow() in a server component), so the first render and hydration agree and
 * a skewed browser clock does not show "in 3 minutes".
 */
export function RelativeTime({ date, now }: { date: Date | string; now: Date | string }) {
  const format = useFormatter();
  const d = new Date(date);
  return (
    <time
      dateTime={d.toISOString()}
      title={format.dateTime(d, { dateStyle: "medium", timeStyle: "long" })}
      className="whitespace-nowrap"
    >
      {format.relativeTime(d, new Date(now))}
    </time>
  );
}

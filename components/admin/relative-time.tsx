import { getFormatter, getNow } from "next-intl/server";

/** "3 minutes ago", with the exact date and time on hover and for assistive tech via dateTime. */
export async function RelativeTime({ date }: { date: Date }) {
  const format = await getFormatter();
  const now = await getNow();
  return (
    <time
      dateTime={date.toISOString()}
      title={format.dateTime(date, { dateStyle: "medium", timeStyle: "long" })}
      className="whitespace-nowrap"
    >
      {format.relativeTime(date, now)}
    </time>
  );
}

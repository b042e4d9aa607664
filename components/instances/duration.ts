type T = (key: string, values?: Record<string, string | number>) => string;

/** A wait or runtime for people: "under a minute", "12 min", "3 h 5 min", "2 d 4 h". */
export function formatDuration(seconds: number, t: T): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t("duration.underMinute");
  const minutes = Math.round(s / 60);
  if (minutes < 60) return t("duration.minutes", { m: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t("duration.hours", { h: hours, m: minutes % 60 });
  return t("duration.days", { d: Math.floor(hours / 24), h: hours % 24 });
}

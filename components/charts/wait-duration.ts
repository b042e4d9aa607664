/**
 * A wait in the unit a person reads it in: seconds under 90 s, minutes (one decimal) under 2 h, hours beyond,
 * so a long queue reads "3.5 h" rather than "210 min".
 */
export type WaitParts = { value: number; unit: "seconds" | "minutes" | "hours" };

export function waitParts(seconds: number): WaitParts {
  const s = Math.max(0, seconds);
  if (s < 90) return { value: Math.round(s), unit: "seconds" };
  if (s < 2 * 3600) return { value: Math.round((s / 60) * 10) / 10, unit: "minutes" };
  return { value: Math.round((s / 3600) * 10) / 10, unit: "hours" };
}

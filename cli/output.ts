/** How every command prints: a table for people, `--json` for scripts, `--quiet` for ids only. */
export type OutputMode = { json?: boolean; quiet?: boolean };

export type Column<T> = {
  header: string;
  value: (row: T) => string | number | null | undefined;
  right?: boolean;
};

export function table<T>(rows: T[], columns: Column<T>[]): string {
  const cells = rows.map((r) => columns.map((c) => String(c.value(r) ?? "—")));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => (columns[i]?.right ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join("\n");
}

/**
 * Print one result three ways. `json` is the documented shape (docs/cli.md: the API's body unless the command
 * says otherwise); `ids` what --quiet prints, one per line; `human` the rest.
 */
export function emit<T>(mode: OutputMode, data: T, human: (d: T) => string, ids?: (d: T) => string[]) {
  if (mode.json) process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
  else if (mode.quiet) {
    const out = ids?.(data) ?? [];
    if (out.length) process.stdout.write(`${out.join("\n")}\n`);
  } else process.stdout.write(`${human(data)}\n`);
}

/** Progress and notes go to stderr so stdout stays parseable. */
export function note(mode: OutputMode, text: string) {
  if (!mode.quiet) process.stderr.write(`${text}\n`);
}

const BARS = "▁▂▃▄▅▆▇█";

/** A one-line chart: each value scaled to 0..max; gaps (null) as spaces. */
export function sparkline(values: Array<number | null>, max: number): string {
  return values
    .map((v) => {
      if (v === null || !Number.isFinite(v)) return " ";
      const i = Math.round((Math.min(Math.max(v, 0), max) / (max || 1)) * (BARS.length - 1));
      return BARS[i];
    })
    .join("");
}

export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "unknown";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.round(s / 60)}m`;
  const h = Math.floor(s / 3600);
  return `${h}h${String(Math.round((s % 3600) / 60)).padStart(2, "0")}m`;
}

export const usd = (n: number | null | undefined) =>
  n === null || n === undefined ? "—" : `$${n.toFixed(2)}`;

/** "30m", "2h", "90s", "1d" → seconds; null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const m = /^(\d+)(s|m|h|d)$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as "s" | "m" | "h" | "d"];
}

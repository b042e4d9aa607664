import fs from "node:fs";
import path from "node:path";
import type { LogLine } from "../types";

/** Read at most this much of each log's end: a chatty job must not make one page load read gigabytes. */
const TAIL_BYTES = 2 * 1024 * 1024;

function tail(file: string): string {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return "";
  }
  try {
    const size = fs.fstatSync(fd).size;
    const start = Math.max(0, size - TAIL_BYTES);
    const buf = Buffer.alloc(size - start);
    fs.readSync(fd, buf, 0, buf.length, start);
    const text = buf.toString("utf8");
    return start > 0 ? text.slice(text.indexOf("\n") + 1) : text;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The instance's logs: the job script stamps every line of the workload's stdout and stderr with
 * $EPOCHREALTIME ("1796150722.123456 text"). Lines in (from, to], oldest first, the last `limit`.
 */
export function readLogs(dir: string, from: Date, to: Date, limit: number): LogLine[] {
  const lines: LogLine[] = [];
  for (const stream of ["stdout", "stderr"] as const) {
    for (const raw of tail(path.join(dir, `${stream}.log`)).split("\n")) {
      const sp = raw.indexOf(" ");
      if (sp <= 0) continue;
      const ms = Math.round(Number(raw.slice(0, sp)) * 1000);
      if (!Number.isFinite(ms) || ms <= from.getTime() || ms > to.getTime()) continue;
      lines.push({ at: new Date(ms), stream, text: raw.slice(sp + 1) });
    }
  }
  lines.sort((a, b) => a.at.getTime() - b.at.getTime());
  return lines.slice(-limit);
}
